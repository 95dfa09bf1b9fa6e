import InkwellGeometry
import InkwellTesting
import Testing

@Suite struct StrokeEraserTests {
    let line = SmoothCurve(points: (0...10).map { Point(Double($0) * 10, 0) })

    @Test func touchingThePaintedWidthCounts() {
        let eraser = StrokeEraser(radius: 3)
        let path = [Point(50, 7)]
        #expect(!eraser.hits(line, width: 1, along: path))
        #expect(eraser.hits(line, width: 8, along: path))
        #expect(eraser.hits(line, width: 0, along: [Point(50, 3)]))
    }

    @Test func erasedPartsAreNotHit() {
        let eraser = StrokeEraser(radius: 2)
        let path = [Point(20, -10), Point(20, 10)]
        #expect(eraser.hits(line, width: 2, along: path))
        let visible = IntervalSet([ParameterInterval(1.5, 2.5)]).gaps(in: 0, line.endParameter)
        #expect(!eraser.hits(line, width: 2, visible: visible, along: path))
        #expect(eraser.hits(line, width: 2, visible: [ParameterInterval(2.2, 2.4)], along: path))
        #expect(!eraser.hits(line, width: 2, visible: [], along: path))
    }

    @Test func agreesWithThePartialEraserOnRandomStrokes() {
        let seed = InkRandom.seed()
        print("StrokeEraserTests seed=\(seed)")
        var random = InkRandom(seed: seed)
        var hits = 0
        for _ in 0..<300 {
            let curve = SmoothCurve(points: random.stroke(count: Int.random(in: 1...12, using: &random)))
            let path = random.stroke(count: Int.random(in: 1...4, using: &random), origin: Point(80, 80), step: 5...40)
            let radius = random.coordinate(1...10)
            let width = random.coordinate(0...6)
            let cuts = PartialEraser(radius: radius + width / 2).cut(curve, along: path)
            let visible = [
                ParameterInterval(0, curve.endParameter / 3), ParameterInterval(curve.endParameter * 0.6, 1e9),
            ]
            let visibleCuts = cuts.filter { cut in visible.contains { $0.lower < cut.upper && cut.lower < $0.upper } }
            let hit = StrokeEraser(radius: radius).hits(curve, width: width, along: path)
            #expect(hit == !cuts.isEmpty, "seed \(seed)")
            if curve.pointCount > 1 {
                let visibleHit = StrokeEraser(radius: radius).hits(curve, width: width, visible: visible, along: path)
                #expect(visibleHit == !visibleCuts.isEmpty, "seed \(seed)")
            }
            if hit { hits += 1 }
        }
        print("StrokeEraserTests: \(hits) of 300 hit")
    }

    @Test func dotsAndHostileInput() {
        let dot = SmoothCurve(points: [Point(5, 5)])
        #expect(StrokeEraser(radius: 1).hits(dot, width: 4, along: [Point(8, 5)]))
        #expect(!StrokeEraser(radius: 1).hits(dot, width: 4, visible: [], along: [Point(8, 5)]))
        #expect(!StrokeEraser(radius: 1).hits(dot, width: .nan, along: [Point(5, 5)]))
        #expect(!StrokeEraser(radius: .infinity).hits(line, width: 1, along: [Point(5, 5)]))
        #expect(!StrokeEraser(radius: 1).hits(line, width: 1, along: []))
        #expect(
            !StrokeEraser(radius: 1).hits(line, width: 1, visible: [ParameterInterval(.nan, 3)], along: [Point(5, 0)])
        )
        #expect(!StrokeEraser(radius: 1).hits(SmoothCurve(points: []), width: 1, along: [Point(5, 0)]))
    }
}
