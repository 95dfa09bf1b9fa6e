import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync

/// A synthetic pen for the load generator: a wobbly walk on the 1/8 px ink grid with pressure, from a
/// seed. Lifting it moves it somewhere else on the canvas.
struct LoadPen {
    private var random: SplitMix64
    private var x: Double
    private var y: Double
    private var heading: Double
    private static let canvas = (width: 1_600.0, height: 1_000.0)

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        (x, y, heading) = (0, 0, 0)
        lift()
    }

    /// The next point of the stroke being drawn, and its pressure in 1/255 steps.
    mutating func next() -> (point: Point, pressureStep: UInt8) {
        heading += Double.random(in: -0.35...0.35, using: &random)
        x = min(max(x + 6 * cos(heading), 0), Self.canvas.width)
        y = min(max(y + 6 * sin(heading), 0), Self.canvas.height)
        return (InkGrid.snap(Point(x: x, y: y)), UInt8.random(in: 77...255, using: &random))
    }

    /// Ends the stroke: the next one starts elsewhere.
    mutating func lift() {
        x = Double.random(in: 0...Self.canvas.width, using: &random)
        y = Double.random(in: 0...Self.canvas.height, using: &random)
        heading = Double.random(in: 0..<(2 * .pi), using: &random)
    }

    /// A number from the pen's generator, for choices that must repeat with the seed.
    mutating func draw(in range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &random)
    }
}
