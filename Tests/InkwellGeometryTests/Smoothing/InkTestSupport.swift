import Foundation
import InkwellGeometry
import InkwellTesting

/// The ink geometry tests' generator: the shared seeded one, with pen-like helpers.
typealias InkRandom = SeededGenerator

extension SeededGenerator {
    /// A seed from `INKWELL_SEED` when set, else a fresh one; the caller prints it.
    static func seed() -> UInt64 { seedFromEnvironment() }

    /// A number in `range` rounded to 1/64 px, so it prints and parses back exactly.
    mutating func coordinate(_ range: ClosedRange<Double>) -> Double {
        (Double.random(in: range, using: &self) * 64).rounded() / 64
    }

    /// A pen-like random walk: steps of varied length, gentle turns, now and then a sharp corner or a repeat.
    mutating func stroke(count: Int, origin: Point = Point(100, 100), step: ClosedRange<Double> = 0.5...12) -> [Point] {
        var points = [Point(coordinate(origin.x...origin.x + 40), coordinate(origin.y...origin.y + 40))]
        var heading = Double.random(in: 0..<(2 * Double.pi), using: &self)
        while points.count < count {
            let roll = Double.random(in: 0..<1, using: &self)
            if roll < 0.05 {
                points.append(points[points.count - 1])
                continue
            }
            heading +=
                roll < 0.15 ? Double.random(in: -2.5...2.5, using: &self) : Double.random(in: -0.4...0.4, using: &self)
            let length = Double.random(in: step, using: &self)
            let last = points[points.count - 1]
            points.append(
                Point(
                    ((last.x + cos(heading) * length) * 64).rounded() / 64,
                    ((last.y + sin(heading) * length) * 64).rounded() / 64
                )
            )
        }
        return points
    }
}

/// Files beside the package: the shared data sets and the conformance folder.
enum InkPaths {
    /// The package root, found from this file's path (Tests/InkwellGeometryTests/Smoothing/…).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let dollarStrokes = DollarDataSet.url

    static let eraserVectors = packageRoot.appendingPathComponent("Conformance/eraser.json")

    static var hasDollarStrokes: Bool { DollarDataSet.isPresent }

    /// The first stroke of every gesture in the $1 development set, as points.
    static func loadDollarStrokes() throws -> [[Point]] {
        let text = try String(contentsOf: dollarStrokes, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let gesture = try JSONDecoder().decode(Gesture.self, from: Data(line.utf8))
            return (gesture.strokes.first ?? []).map { Point($0[0], $0[1]) }
        }
    }

    private struct Gesture: Decodable {
        var strokes: [[[Double]]]
    }
}
