import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync

/// Strokes that look hand-drawn enough for sync tests and load: wobbly curves with pressure, from a seed,
/// so a run can be repeated exactly.
struct SyntheticDrawing {
    private var random: SplitMix64
    /// The area strokes are drawn in.
    let canvas: Rect

    init(seed: UInt64, canvas: Rect = Rect(minX: 0, minY: 0, maxX: 1_600, maxY: 1_000)) {
        self.random = SplitMix64(seed: seed)
        self.canvas = canvas
    }

    /// The style and points of the next stroke: 20 to 80 points on the 1/8 px ink grid.
    mutating func nextStroke() -> (style: StrokeStyle, points: [Point], pressures: [Float]) {
        let count = Int.random(in: 20...80, using: &random)
        var x = Double.random(in: canvas.minX...canvas.maxX, using: &random)
        var y = Double.random(in: canvas.minY...canvas.maxY, using: &random)
        var heading = Double.random(in: 0..<(2 * .pi), using: &random)
        var points: [Point] = []
        var pressures: [Float] = []
        for _ in 0..<count {
            heading += Double.random(in: -0.35...0.35, using: &random)
            x = min(max(x + 6 * cos(heading), canvas.minX), canvas.maxX)
            y = min(max(y + 6 * sin(heading), canvas.minY), canvas.maxY)
            points.append(InkGrid.snap(Point(x: x, y: y)))
            pressures.append(InkGrid.snap(pressure: Float.random(in: 0.3...1, using: &random)))
        }
        let palette: [UInt32] = [0x1F1F_1FFF, 0xD7263DFF, 0x1B998BFF, 0x2E86ABFF, 0xF46036FF]
        let style = StrokeStyle(
            colour: Colour(rgba: palette[Int.random(in: 0..<palette.count, using: &random)]),
            width: [2, 3, 4, 6][Int.random(in: 0..<4, using: &random)]
        )
        return (style, points, pressures)
    }
}
