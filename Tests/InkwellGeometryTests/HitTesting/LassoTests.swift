import InkwellGeometry
import Testing

@Suite struct LassoTests {
    let square = Lasso(polygon: [Point(0, 0), Point(100, 0), Point(100, 100), Point(0, 100)])

    @Test func strokeWhollyInsideIsSelectedAndOneOutsideIsNot() {
        #expect(square.selects(SmoothCurve(points: [Point(10, 10), Point(50, 60), Point(90, 20)])))
        #expect(!square.selects(SmoothCurve(points: [Point(110, 10), Point(150, 60)])))
    }

    @Test func strokeMostlyInsideIsSelectedByDefaultButNotWhenAllIsAskedFor() {
        // 95 of 100 px inside.
        let stroke = SmoothCurve(points: [Point(5, 50), Point(50, 50), Point(105, 50)])
        #expect(square.selects(stroke))
        var strict = square
        strict.configuration.minimumInsideFraction = 1
        #expect(!strict.selects(stroke))
        // Half inside is not enough by default.
        #expect(!square.selects(SmoothCurve(points: [Point(50, 50), Point(150, 50)])))
    }

    @Test func onlyVisiblePiecesCount() {
        let stroke = SmoothCurve(points: [Point(50, 50), Point(150, 50), Point(250, 50)])
        #expect(!square.selects(stroke))
        #expect(square.selects(stroke, visible: [ParameterInterval(0, 0.4)]))
        #expect(!square.selects(stroke, visible: []))
    }

    @Test func windingRuleKeepsADoubleLoopsOverlapInside() {
        // Drawn twice around: even-odd would call the middle outside; non-zero keeps it in.
        let twice = Lasso(polygon: [
            Point(0, 0), Point(100, 0), Point(100, 100), Point(0, 100),
            Point(0, 0), Point(100, 0), Point(100, 100), Point(0, 100),
        ])
        #expect(twice.contains(Point(50, 50)))
        // A figure eight: both lobes are inside.
        let eight = Lasso(polygon: [Point(0, 0), Point(100, 100), Point(100, 0), Point(0, 100)])
        #expect(eight.contains(Point(10, 50)) && eight.contains(Point(90, 50)) && !eight.contains(Point(50, 10)))
    }

    @Test func dotsAndDegenerateInput() {
        #expect(square.selects(SmoothCurve(points: [Point(20, 20)])))
        #expect(!square.selects(SmoothCurve(points: [Point(20, 20)]), visible: []))
        #expect(square.selects(SmoothCurve(points: [Point(20, 20), Point(20, 20)])))
        #expect(!Lasso(polygon: [Point(0, 0), Point(10, 10)]).selects(SmoothCurve(points: [Point(5, 5)])))
        #expect(!Lasso(polygon: [Point(0, 0), Point(.nan, 10), Point(10, 0)]).contains(Point(1, 1)))
        #expect(!square.selects(SmoothCurve(points: [Point(.nan, 20), Point(30, 30)])))
        #expect(!square.selects(SmoothCurve(points: [])))
    }
}
