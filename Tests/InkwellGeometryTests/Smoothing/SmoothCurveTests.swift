import InkwellGeometry
import InkwellTesting
import Testing

@Suite struct SmoothCurveTests {
    @Test func curvePassesThroughEverySampleAtIntegerParameters() {
        let seed = InkRandom.seed()
        print("SmoothCurveTests seed=\(seed)")
        var random = InkRandom(seed: seed)
        for _ in 0..<200 {
            let points = random.stroke(count: Int.random(in: 1...40, using: &random))
            let curve = SmoothCurve(points: points)
            for (index, point) in points.enumerated() {
                #expect(curve.point(at: Double(index)) == point, "seed \(seed)")
            }
            #expect(curve.segments.count == max(points.count - 1, 0))
        }
    }

    @Test func segmentsJoinWithMatchingTangents() {
        let curve = SmoothCurve(points: [Point(0, 0), Point(10, 5), Point(20, 0), Point(25, 10)])
        for index in 1..<curve.segments.count {
            let incoming = curve.segment(index - 1).end - curve.segment(index - 1).control2
            let outgoing = curve.segment(index).control1 - curve.segment(index).start
            #expect(abs(incoming.cross(outgoing)) < 1e-9 * incoming.length * outgoing.length)
            #expect(incoming.dot(outgoing) > 0)
        }
    }

    @Test func beziersInIntervalMatchPointAtParameter() {
        let seed = InkRandom.seed()
        print("SmoothCurveTests seed=\(seed)")
        var random = InkRandom(seed: seed)
        for _ in 0..<200 {
            let curve = SmoothCurve(points: random.stroke(count: Int.random(in: 2...30, using: &random)))
            let end = curve.endParameter
            let a = Double.random(in: -0.5...end, using: &random)
            let b = Double.random(in: a...(end + 0.5), using: &random)
            let pieces = curve.beziers(in: ParameterInterval(a, b))
            let lower = max(a, 0)
            let upper = min(b, end)
            guard lower < upper else {
                #expect(pieces.isEmpty)
                continue
            }
            #expect(pieces.first?.start == curve.point(at: lower), "seed \(seed)")
            #expect(pieces.last?.end == curve.point(at: upper), "seed \(seed)")
            // Walk the pieces: each covers the parameters from its start to the next integer (or the end).
            var cursor = lower
            for piece in pieces {
                let pieceEnd = min((cursor + 1).rounded(.down), upper)
                for step in 0...8 {
                    let f = Double(step) / 8
                    let expected = curve.point(at: cursor + (pieceEnd - cursor) * f)
                    #expect(piece.point(at: f).distance(to: expected) < 1e-9, "seed \(seed) [\(a), \(b))")
                }
                cursor = pieceEnd
            }
            #expect(cursor == upper)
        }
    }

    @Test func splitHalvesTraceTheSameCurve() {
        let bezier = CubicBezier(
            start: Point(0, 0),
            control1: Point(10, 30),
            control2: Point(40, -20),
            end: Point(50, 5)
        )
        let (left, right) = bezier.split(at: 0.3)
        #expect(left.start == bezier.start && right.end == bezier.end && left.end == right.start)
        for step in 0...10 {
            let t = Double(step) / 10
            #expect(left.point(at: t).distance(to: bezier.point(at: 0.3 * t)) < 1e-12)
            #expect(right.point(at: t).distance(to: bezier.point(at: 0.3 + 0.7 * t)) < 1e-12)
        }
    }

    @Test func flatteningStaysWithinToleranceAndKeepsEverySample() {
        let points = [Point(0, 0), Point(30, 40), Point(60, -10), Point(61, -10), Point(100, 50)]
        let curve = SmoothCurve(points: points)
        let flat = curve.flattened(tolerance: 0.1)
        for index in points.indices {
            #expect(flat.contains { $0.parameter == Double(index) && $0.point == points[index] })
        }
        #expect(zip(flat, flat.dropFirst()).allSatisfy { $0.parameter < $1.parameter })
        for (a, b) in zip(flat, flat.dropFirst()) {
            let middle = curve.point(at: (a.parameter + b.parameter) / 2)
            let chord = Point(b.point.x - a.point.x, b.point.y - a.point.y)
            let offset = abs(chord.cross(middle - a.point)) / max(chord.length, 1e-12)
            #expect(offset <= 0.1 + 1e-9)
        }
    }

    @Test func repeatedSamplesGiveStillSegmentsNotNaN() {
        let curve = SmoothCurve(points: [Point(5, 5), Point(5, 5), Point(5, 5), Point(9, 5), Point(9, 5)])
        #expect(curve.segments.allSatisfy { $0.isFinite })
        #expect(curve.segment(0) == CubicBezier(point: Point(5, 5)))
        #expect(curve.point(at: 2.5).y == 5)
    }

    @Test func dotAndEmptyCurvesAreHandled() {
        let dot = SmoothCurve(points: [Point(3, 4)])
        #expect(dot.endParameter == 0 && dot.segments.isEmpty)
        #expect(dot.point(at: 0) == Point(3, 4) && dot.point(at: 7) == Point(3, 4))
        #expect(dot.beziers(in: ParameterInterval(0, 1)) == [CubicBezier(point: Point(3, 4))])
        #expect(dot.flattened(tolerance: 1).map(\.point) == [Point(3, 4)])
        #expect(dot.bounds == Rect(minX: 3, minY: 4, maxX: 3, maxY: 4))
        let empty = SmoothCurve(points: [])
        #expect(empty.point(at: 0).x.isNaN && empty.beziers(in: ParameterInterval(0, 1)).isEmpty)
        #expect(empty.flattened(tolerance: 1).isEmpty && empty.bounds == nil)
    }

    @Test func hostileInputNeverCrashes() {
        let nan = Double.nan
        let inf = Double.infinity
        let curves = [
            SmoothCurve(points: [Point(nan, 0), Point(1, 1), Point(2, 2)]),
            SmoothCurve(points: [Point(inf, 0), Point(-inf, 1), Point(2, nan)]),
            SmoothCurve(points: [Point(1e308, -1e308), Point(-1e308, 1e308), Point(0, 0)]),
        ]
        for curve in curves {
            _ = curve.point(at: nan)
            _ = curve.point(at: inf)
            _ = curve.point(at: -inf)
            _ = curve.beziers(in: ParameterInterval(nan, 1))
            _ = curve.beziers(in: ParameterInterval(-inf, inf))
            _ = curve.flattened(tolerance: nan)
            _ = curve.flattened(tolerance: 0)
            _ = curve.flattened(in: ParameterInterval(-inf, inf), tolerance: -1)
            _ = curve.bounds
            _ = curve.chunkBounds(pointsPerChunk: 0)
        }
        #expect(SmoothCurve(points: [Point(0, 0), Point(1, 0)]).point(at: nan).x.isNaN)
    }
}
