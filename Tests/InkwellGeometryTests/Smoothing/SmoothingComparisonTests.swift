import Foundation
import InkwellGeometry
import Testing

/// Compares smoothing methods on real pen strokes ($1 gesture logs, Wobbrock et al., UIST 2007) and prints the
/// figures quoted in BENCHMARKS.md. Centripetal Catmull–Rom is what `SmoothCurve` uses.
@Suite struct SmoothingComparisonTests {
    /// One method's totals over all strokes.
    struct Figures {
        var segments = 0
        var worstSampleMiss = 0.0
        var excursions: [Double] = []
        var doubledBack = 0
        var looped = 0
        var curveTurning = 0.0
        var polylineTurning = 0.0
        var buildSeconds = 0.0
        var flattenedPoints = 0

        var report: String {
            let sorted = excursions.sorted()
            let p99 = sorted.isEmpty ? 0 : sorted[Int(Double(sorted.count - 1) * 0.99)]
            let mean = excursions.reduce(0, +) / Double(max(excursions.count, 1))
            return String(
                format:
                    "miss %.2f px | excursion mean %.3f p99 %.2f max %.2f px | doubled back %d self-crossing %d of %d | "
                    + "turning ×%.3f | build %.0f ns/pt | %.2f pts/seg at 0.25 px",
                worstSampleMiss,
                mean,
                p99,
                sorted.last ?? 0,
                doubledBack,
                looped,
                segments,
                curveTurning / polylineTurning,
                buildSeconds * 1e9 / Double(max(segments, 1)),
                Double(flattenedPoints) / Double(max(segments, 1))
            )
        }
    }

    @Test(.enabled(if: InkPaths.hasDollarStrokes))
    func centripetalCatmullRomHasNoCuspsOrLoopsOnRealStrokes() throws {
        let strokes = try InkPaths.loadDollarStrokes().map(Self.withoutRepeats).filter { $0.count >= 2 }
        var results: [(String, Figures)] = []
        for (name, build) in Self.methods {
            var figures = Figures()
            for points in strokes {
                let start = DispatchTime.now().uptimeNanoseconds
                let beziers = build(points)
                figures.buildSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                Self.measure(beziers, samples: points, into: &figures)
            }
            results.append((name, figures))
            print("smoothing \(name): \(figures.report)")
        }
        let centripetal = try #require(results.first { $0.0 == "centripetal Catmull-Rom" }?.1)
        #expect(centripetal.worstSampleMiss == 0)
        #expect(centripetal.looped == 0)
    }

    static let methods: [(String, @Sendable ([Point]) -> [CubicBezier])] = [
        ("centripetal Catmull-Rom", { SmoothCurve(points: $0, alpha: 0.5).segments }),
        ("uniform Catmull-Rom", { SmoothCurve(points: $0, alpha: 0).segments }),
        ("chordal Catmull-Rom", { SmoothCurve(points: $0, alpha: 1).segments }),
        ("midpoint quadratic B-spline", midpointBSpline),
    ]

    /// Successive equal samples carry no shape; every method gets the same cleaned points.
    static func withoutRepeats(_ points: [Point]) -> [Point] {
        points.enumerated().filter { $0.offset == 0 || points[$0.offset - 1] != $0.element }.map(\.element)
    }

    /// Quadratic pieces from midpoint to midpoint with each sample as control point (not interpolating).
    static func midpointBSpline(_ points: [Point]) -> [CubicBezier] {
        func quadratic(_ s: Point, _ c: Point, _ e: Point) -> CubicBezier {
            CubicBezier(start: s, control1: s + (c - s) * (2.0 / 3), control2: e + (c - e) * (2.0 / 3), end: e)
        }
        guard points.count > 2 else { return SmoothCurve(points: points).segments }
        let middles = zip(points, points.dropFirst()).map { ($0 + $1) / 2 }
        var pieces = [quadratic(points[0], (points[0] + middles[0]) / 2, middles[0])]
        for index in 1..<middles.count { pieces.append(quadratic(middles[index - 1], points[index], middles[index])) }
        let last = points[points.count - 1]
        pieces.append(quadratic(middles[middles.count - 1], (middles[middles.count - 1] + last) / 2, last))
        return pieces
    }

    static func measure(_ beziers: [CubicBezier], samples: [Point], into figures: inout Figures) {
        let steps = 12
        var curve: [Point] = []
        for (index, bezier) in beziers.enumerated() {
            figures.segments += 1
            let chord = bezier.end - bezier.start
            var worst = 0.0
            var backwards = false
            var previousDirection: Point?
            var turning = 0.0
            var points: [Point] = []
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                let point = bezier.point(at: t)
                points.append(point)
                if step < steps || index == beziers.count - 1 { curve.append(point) }
                var distance = Double.infinity
                for edge in max(index - 2, 0)...min(index + 2, samples.count - 2) {
                    distance = min(distance, point.distanceToSegment(samples[edge], samples[edge + 1]))
                }
                worst = max(worst, distance)
                let direction = derivative(bezier, t)
                if direction.dot(chord) < 0 { backwards = true }
                if let previous = previousDirection, direction.lengthSquared > 0, previous.lengthSquared > 0 {
                    turning += abs(atan2(previous.cross(direction), previous.dot(direction)))
                }
                if direction.lengthSquared > 0 { previousDirection = direction }
            }
            figures.excursions.append(worst)
            if backwards { figures.doubledBack += 1 }
            // A loop needs more than half a turn; only then look for the polyline crossing itself.
            if turning > Double.pi, crossesItself(points) { figures.looped += 1 }
            figures.flattenedPoints += bezier.flatCount(tolerance: 0.25)
        }
        // Where the samples are: exactly on the curve for interpolating methods.
        for (index, sample) in samples.enumerated() {
            var miss = Double.infinity
            for position in max((index - 2) * steps, 0)..<min((index + 3) * steps, curve.count) {
                miss = min(miss, curve[position].distance(to: sample))
            }
            figures.worstSampleMiss = max(figures.worstSampleMiss, miss < 1e-9 ? 0 : miss)
        }
        figures.curveTurning += turningOf(curve)
        figures.polylineTurning += turningOf(samples)
    }

    /// Whether two non-adjacent edges of the polyline cross.
    static func crossesItself(_ points: [Point]) -> Bool {
        func side(_ a: Point, _ b: Point, _ c: Point) -> Double { (b - a).cross(c - a) }
        for i in 0..<(points.count - 1) {
            for j in stride(from: i + 2, to: points.count - 1, by: 1) {
                let (a, b, c, d) = (points[i], points[i + 1], points[j], points[j + 1])
                if side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0 { return true }
            }
        }
        return false
    }

    static func derivative(_ b: CubicBezier, _ t: Double) -> Point {
        let s = 1 - t
        return (b.control1 - b.start) * (3 * s * s) + (b.control2 - b.control1) * (6 * s * t)
            + (b.end - b.control2) * (3 * t * t)
    }

    static func turningOf(_ points: [Point]) -> Double {
        let edges = zip(points, points.dropFirst()).map { $1 - $0 }.filter { $0.lengthSquared > 0 }
        return zip(edges, edges.dropFirst()).reduce(0) { $0 + abs(atan2($1.0.cross($1.1), $1.0.dot($1.1))) }
    }
}

extension Point {
    fileprivate func distanceToSegment(_ a: Point, _ b: Point) -> Double {
        let ab = b - a
        let t = ab.lengthSquared > 0 ? min(max((self - a).dot(ab) / ab.lengthSquared, 0), 1) : 0
        return distance(to: a + ab * t)
    }
}

extension CubicBezier {
    /// How many line segments halving until the control points are within `tolerance` of the chord gives.
    fileprivate func flatCount(tolerance: Double, depth: Int = 0) -> Int {
        let flatness = max(control1.distanceToSegment(start, end), control2.distanceToSegment(start, end))
        if depth >= 16 || flatness <= tolerance { return 1 }
        let (left, right) = split(at: 0.5)
        return left.flatCount(tolerance: tolerance, depth: depth + 1)
            + right.flatCount(tolerance: tolerance, depth: depth + 1)
    }
}
