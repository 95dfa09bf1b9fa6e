import Foundation
import InkwellBoard
import InkwellGeometry

/// The strokes of the CRDT anchors (`../shared/anchors/bench.py`): the same seeds, the same pen-like
/// random walk rounded to float32, the same colours and widths.
///
/// Inkwell snaps pen input to ``InkGrid`` (1/8 px) before it becomes a change, as every Inkwell client
/// does: the anchors' libraries store the float32 values, Inkwell stores them within 1/16 px.
struct AnchorStroke {
    /// The anchors' stroke id (`a0`, `b17`, …); Inkwell derives its own from the change.
    let name: String
    let style: StrokeStyle
    /// As the anchors generate them (float32 values).
    let exact: [Point]
    /// On the ink grid: what Inkwell stores.
    let points: [Point]

    static let palette: [UInt32] = [
        0x1E1E_1EFF, 0xE031_31FF, 0x2F9E_44FF, 0x1971_C2FF, 0xF08C_00FF, 0x9C36_B5FF, 0x0C85_99FF, 0x868E_96FF,
    ]
    static let widths = [1.0, 2.0, 3.5, 6.0]

    /// `gen_strokes(seed, count, npts, prefix)`.
    static func generate(seed: UInt32, count: Int, points: Int, prefix: String) -> [AnchorStroke] {
        var random = PythonRandom(seed: seed)
        return (0..<count).map { index in
            let colour = random.choice(palette)
            let width = random.choice(widths)
            let exact = walk(&random, count: points)
            return AnchorStroke(
                name: "\(prefix)\(index)",
                style: StrokeStyle(colour: Colour(rgba: colour), width: width),
                exact: exact,
                points: exact.map(InkGrid.snap)
            )
        }
    }

    /// `gen_points(rng, n)`: heading turns by a Gaussian step, speed is uniform, values are float32.
    static func walk(_ random: inout PythonRandom, count: Int) -> [Point] {
        var x = random.uniform(0, 1_920)
        var y = random.uniform(0, 1_080)
        var heading = random.uniform(0, 2 * Double.pi)
        return (0..<count).map { _ in
            heading += random.gauss(0, 0.25)
            let speed = random.uniform(1.5, 6.0)
            x += speed * cos(heading)
            y += speed * sin(heading)
            return Point(Double(Float(x)), Double(Float(y)))
        }
    }

    /// The operation that adds this stroke.
    var addition: BoardOperation {
        .addStroke(style, points: points, pressures: nil)
    }
}
