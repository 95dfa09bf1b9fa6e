import Foundation
import InkwellGeometry
import InkwellTesting

/// Draws shapes the way people drew them in the $1 gesture logs, from a seed.
///
/// The untidiness is measured, not guessed. `HumanStrokeStatisticsTests` measures the 420 rectangles and triangles
/// of subjects s01–s07 and the same number of these strokes with the same code; the ranges below were set so the
/// two agree (10th / 50th / 90th percentiles, real vs synthetic):
/// - edge jitter, RMS distance from the edge's fitted line: 0.24 / 0.49 / 0.96 % of the edge vs 0.23 / 0.51 / 0.90 %;
/// - corner rounding, closest approach to the corner: 0.9 / 2.3 / 6.4 % of the mean edge vs 1.5 / 3.4 / 5.9 %;
/// - opening left where the stroke closes: 0.9 / 2.8 / 5.5 % of its length vs 0.9 / 3.2 / 6.3 %;
/// - speed at corners over speed along edges: 0.32 / 0.45 / 0.63 vs 0.36 / 0.48 / 0.61;
/// - sampling interval 8 / 17 / 31 ms, pen speed 0.12 / 0.26 / 0.47 px/ms, drawn here from those ranges.
/// Points are rounded to whole pixels at the data set's scale (shapes 60–200 px across), as a stylus screen does,
/// before the drawing is turned, scaled and moved.
struct SyntheticStroke {
    var points: [Point]
    var times: [Double]

    /// How untidy the stroke is; `.measured` draws every figure from the ranges above.
    struct Style {
        var jitter: ClosedRange<Double> = 0.0024...0.013
        var rounding: ClosedRange<Double> = 0.005...0.045
        var gap: ClosedRange<Double> = 0.01...0.07
        var overshoot: ClosedRange<Double> = 0...0.016
        var cornerSpeed: ClosedRange<Double> = 0.32...0.63
        var interval: ClosedRange<Double> = 8...31
        /// Pixels per millisecond at the data set's scale.
        var speed: ClosedRange<Double> = 0.124...0.47
        /// The bow of each edge (its largest distance from the chord), as a fraction of the edge.
        var bow: ClosedRange<Double> = 0...0.01

        static let measured = Style()
        /// No noise at all: for unit tests that need exact geometry.
        static let clean = Style(
            jitter: 0...0,
            rounding: 0...0,
            gap: 0...0,
            overshoot: 0...0,
            cornerSpeed: 1...1,
            interval: 10...10,
            speed: 0.25...0.25,
            bow: 0...0
        )
    }

    /// A stroke through `corners` (in a unit-sized frame), closed back to the first if `closed`.
    init(
        through corners: [Point],
        closed: Bool,
        style: Style = .measured,
        size: Double = 120,
        using generator: inout SeededGenerator
    ) {
        let scale = size
        var vertices = corners.map { $0 * scale }
        if closed { vertices.append(vertices[0]) }
        var edges: [Double] = []
        for index in 1..<vertices.count { edges.append(vertices[index - 1].distance(to: vertices[index])) }
        let meanEdge = edges.reduce(0, +) / Double(edges.count)
        let jitter = generator.uniform(style.jitter)
        let rounding = generator.uniform(style.rounding) * meanEdge
        // The ideal path, densely sampled, with rounded corners and wobbling, bowed edges.
        var path: [Point] = []
        var slowness: [Double] = []
        for index in 1..<vertices.count {
            let start = vertices[index - 1]
            let end = vertices[index]
            let length = edges[index - 1]
            let along = (end - start) / length
            let normal = Point(-along.y, along.x)
            let bow = generator.uniform(style.bow) * length * (generator.uniform(0...1) < 0.5 ? -1 : 1)
            let phase = generator.uniform(0...(2 * Double.pi))
            let cycles = generator.uniform(1...3)
            let steps = max(8, Int(length / 2))
            for step in 0..<steps {
                let t = Double(step) / Double(steps)
                let wobble = jitter * length * 1.2 * sin(2 * Double.pi * cycles * t + phase)
                let offset = 4 * bow * t * (1 - t) + wobble
                path.append(start + along * (length * t) + normal * offset)
                let fromCorner = min(t * length, (1 - t) * length)
                slowness.append(fromCorner < 0.15 * meanEdge ? 1 : 0)
            }
        }
        path.append(vertices[vertices.count - 1])
        slowness.append(1)
        path = Self.rounded(path, radius: rounding, corners: vertices, closed: closed)
        // Close short of the start or run past it.
        if closed {
            let total = path.drawnLength()
            let gap = generator.uniform(style.gap) * total
            let overshoot = generator.uniform(style.overshoot) * total
            if generator.uniform(0...1) < 0.85 {
                path = Self.trimmed(path, end: gap)
                slowness = Array(slowness.prefix(path.count))
            } else {
                let extra = Array(path.prefix(path.count / 4))
                var walked = 0.0
                for index in 1..<extra.count where walked < overshoot {
                    walked += extra[index - 1].distance(to: extra[index])
                    path.append(extra[index])
                    slowness.append(0)
                }
            }
        }
        // Pen-sampled: a point every 8–31 ms, the pen slowing near corners.
        let cornerSpeed = generator.uniform(style.cornerSpeed)
        let baseSpeed = generator.uniform(style.speed)
        var sampled: [Point] = [path[0]]
        var times: [Double] = [0]
        var clock = 0.0
        var index = 0
        var carried = 0.0
        while index < path.count - 1 {
            let interval = generator.uniform(style.interval)
            clock += interval
            var budget = interval * baseSpeed + carried
            while index < path.count - 1 {
                let speedFactor = slowness[min(index, slowness.count - 1)] > 0 ? cornerSpeed : 1
                let step = path[index].distance(to: path[index + 1]) / speedFactor
                if step > budget { break }
                budget -= step
                index += 1
            }
            carried = budget
            sampled.append(path[index])
            times.append(clock)
        }
        let noisy = sampled.map { point in
            let noise = Point(generator.uniform(-1...1), generator.uniform(-1...1)) * (jitter * meanEdge * 0.5)
            return point + noise
        }
        self.points = noisy.map { Point($0.x.rounded(), $0.y.rounded()) }
        self.times = times
    }

    /// The same stroke turned by `angle` radians about the origin, scaled and moved.
    func transformed(angle: Double, scale: Double, offset: Point) -> SyntheticStroke {
        let c = cos(angle)
        let s = sin(angle)
        var copy = self
        copy.points = points.map {
            Point(($0.x * c - $0.y * s) * scale + offset.x, ($0.x * s + $0.y * c) * scale + offset.y)
        }
        return copy
    }

    /// Corners cut smoothly: the stroke passes `radius` inside a right-angled corner, points up to three radii
    /// away pulled in along the corner's bisector.
    private static func rounded(_ path: [Point], radius: Double, corners: [Point], closed: Bool) -> [Point] {
        guard radius > 0 else { return path }
        var bends: [(corner: Point, inward: Point, depth: Double)] = []
        let count = closed ? corners.count - 1 : corners.count
        for index in 0..<count {
            guard closed || (index > 0 && index < count - 1) else { continue }
            let previous = corners[(index + count - 1) % count]
            let next = corners[(index + 1) % count]
            let corner = corners[index]
            let bisector =
                (previous - corner) / previous.distance(to: corner) + (next - corner) / next.distance(to: corner)
            guard bisector.length > 1e-9 else { continue }
            // The pen cuts every corner by about the same length along its edges, so an obtuse corner is pulled
            // in less than a right angle (where the rounding was measured) and a sharp one more.
            bends.append((corner, bisector / bisector.length, bisector.length / 2.squareRoot()))
        }
        return path.map { point in
            for bend in bends where point.distance(to: bend.corner) < 3 * radius {
                let pull = 1 - point.distance(to: bend.corner) / (3 * radius)
                return point + bend.inward * (radius * bend.depth * pull * pull)
            }
            return point
        }
    }

    /// The path with `end` length cut off its end.
    private static func trimmed(_ path: [Point], end: Double) -> [Point] {
        var remaining = end
        var result = path
        while result.count > 2, remaining > 0 {
            let last = result[result.count - 1].distance(to: result[result.count - 2])
            if last > remaining { break }
            remaining -= last
            result.removeLast()
        }
        return result
    }
}

extension [Point] {
    func drawnLength() -> Double {
        var length = 0.0
        for index in indices.dropFirst() { length += self[index - 1].distance(to: self[index]) }
        return length
    }
}
