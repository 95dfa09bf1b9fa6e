import Foundation
import InkwellTesting
import Testing

@testable import InkwellGeometry

/// Measures how untidy people draw, on the real rectangles and triangles and on the synthetic ones, so the
/// synthetic line and diamond sets can be checked against the real figures (see `SyntheticStroke`).
@Suite struct HumanStrokeStatisticsTests {
    struct Statistics {
        var jitter: [Double] = []
        var rounding: [Double] = []
        var opening: [Double] = []
        var cornerSpeed: [Double] = []

        mutating func measure(_ points: [Point], times: [Double], corners count: Int) {
            let configuration = ShapeRecognizer.Configuration()
            let local = points.map { $0 - points[0] }
            let samples = local.resampled(count: configuration.sampleCount)
            let closure = Closure(
                samples: samples,
                tailFraction: configuration.maxClosingTail,
                overshootWeight: configuration.overshootWeight
            )
            opening.append(closure.opening)
            let loop = Loop(Array(samples[closure.start...closure.end]), configuration: configuration)
            guard let corners = loop.strongestCorners(count),
                let fit = PolygonFit(loop, corners: corners, trim: configuration.edgeTrim)
            else { return }
            let edges = (0..<count).map { fit.vertices[$0].distance(to: fit.vertices[($0 + 1) % count]) }
            let meanEdge = edges.reduce(0, +) / Double(count)
            let n = loop.points.count
            for index in 0..<count {
                let span = (corners[(index + 1) % count] - corners[index] + n) % n
                let margin = Int(Double(span) * 0.2)
                let inner = (margin...(span - margin)).map { loop.points[(corners[index] + $0) % n] }
                let squares = inner.map { fit.edges[index].across($0) * fit.edges[index].across($0) }
                jitter.append((squares.reduce(0, +) / Double(inner.count)).squareRoot() / edges[index])
                rounding.append(loop.points.map { $0.distance(to: fit.vertices[index]) }.min()! / meanEdge)
            }
            var near: [Double] = []
            var far: [Double] = []
            for index in 1..<(points.count - 1) where times[index + 1] > times[index - 1] {
                let speed = points[index + 1].distance(to: points[index - 1]) / (times[index + 1] - times[index - 1])
                let distance = fit.vertices.map { $0.distance(to: local[index]) }.min()!
                if distance < 0.15 * meanEdge {
                    near.append(speed)
                } else if distance > 0.3 * meanEdge {
                    far.append(speed)
                }
            }
            if !near.isEmpty, !far.isEmpty {
                cornerSpeed.append(near.sorted()[near.count / 2] / far.sorted()[far.count / 2])
            }
        }

        static func percentiles(_ values: [Double], scale: Double = 100) -> String {
            let sorted = values.sorted()
            let figures = [0.1, 0.5, 0.9].map { sorted[min(sorted.count - 1, Int(Double(sorted.count) * $0))] * scale }
            return figures.map { String(format: "%.2f", $0) }.joined(separator: " / ")
        }

        var summary: String {
            """
            edge jitter % of edge \(Self.percentiles(jitter)); corner rounding % of mean edge \
            \(Self.percentiles(rounding)); opening % of length \(Self.percentiles(opening)); \
            corner / edge speed \(Self.percentiles(cornerSpeed, scale: 1))
            """
        }
    }

    @Test(.enabled(if: DollarDataSet.isPresent))
    func syntheticStrokesAreAsUntidyAsRealOnes() {
        var real = Statistics()
        for gesture in DollarDataSet.shared.gestures where gesture.label == "rectangle" || gesture.label == "triangle" {
            real.measure(gesture.points, times: gesture.times, corners: gesture.label == "rectangle" ? 4 : 3)
        }
        var synthetic = Statistics()
        var generator = SeededGenerator(seed: 7)
        for kind in ["rectangle", "triangle"] {
            for _ in 0..<210 {
                let stroke = SyntheticShapes.stroke(kind, size: generator.uniform(60...200), using: &generator)
                synthetic.measure(stroke.points, times: stroke.times, corners: kind == "rectangle" ? 4 : 3)
            }
        }
        print("real (p10 / p50 / p90): \(real.summary)\nsynthetic: \(synthetic.summary)")
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        #expect(abs(median(synthetic.jitter) / median(real.jitter) - 1) < 0.5)
        #expect(abs(median(synthetic.opening) / median(real.opening) - 1) < 0.5)
        #expect(abs(median(synthetic.cornerSpeed) / median(real.cornerSpeed) - 1) < 0.25)
    }
}
