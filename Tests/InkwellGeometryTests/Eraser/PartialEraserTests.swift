import Foundation
import InkwellGeometry
import InkwellTesting
import Testing

@Suite struct PartialEraserTests {
    @Test func cutsMatchDenseSamplingOnRandomStrokesAndPaths() {
        let seed = InkRandom.seed()
        print("PartialEraserTests seed=\(seed)")
        var random = InkRandom(seed: seed)
        var cutCount = 0
        var worst = 0.0
        for caseNumber in 0..<400 {
            let points = random.stroke(count: Int.random(in: 1...16, using: &random))
            let curve = SmoothCurve(points: points)
            let radius = random.coordinate(0.5...25)
            let anchor = points[Int.random(in: 0..<points.count, using: &random)]
            let path = random.stroke(
                count: Int.random(in: 1...6, using: &random),
                origin: Point(anchor.x - 25, anchor.y - 25),
                step: 1...30
            )
            let cuts = PartialEraser(radius: radius).cut(curve, along: path)
            cutCount += cuts.count
            worst = max(worst, EraserReference.worstBoundaryError(cuts, curve: curve, path: path, radius: radius))
            let problems = EraserReference.mismatches(cuts, curve: curve, path: path, radius: radius)
            #expect(
                problems.isEmpty,
                "seed \(seed) case \(caseNumber): \(problems) points \(points) path \(path) r \(radius)"
            )
        }
        print("PartialEraserTests: 400 cases, \(cutCount) cut intervals, worst end \(worst) px from the edge")
    }

    @Test func dragAcrossAStraightStrokeCutsTheDiameter() {
        let curve = SmoothCurve(points: (0...10).map { Point(Double($0) * 10, 0) })
        let cuts = PartialEraser(radius: 5).cut(curve, along: [Point(50, -20), Point(50, 20)])
        #expect(cuts.count == 1)
        #expect(abs(cuts[0].lower - 4.5) < 1e-9 && abs(cuts[0].upper - 5.5) < 1e-9)
    }

    @Test func tapOnTheEndCutsToTheEnd() {
        let curve = SmoothCurve(points: (0...4).map { Point(Double($0) * 10, 0) })
        let cuts = PartialEraser(radius: 5).cut(curve, along: [Point(40, 0)])
        #expect(cuts.count == 1 && abs(cuts[0].lower - 3.5) < 1e-9 && cuts[0].upper == 4)
        let start = PartialEraser(radius: 5).cut(curve, along: [Point(-3, 0)])
        #expect(start.count == 1 && start[0].lower == 0 && abs(start[0].upper - 0.2) < 1e-9)
    }

    @Test func eraserCoveringEverythingCutsTheWholeStroke() {
        let curve = SmoothCurve(points: [Point(0, 0), Point(5, 5), Point(10, 0)])
        #expect(PartialEraser(radius: 100).cut(curve, along: [Point(5, 0)]) == [ParameterInterval(0, 2)])
    }

    @Test func zigzagPathMakesSeveralCuts() {
        let curve = SmoothCurve(points: (0...20).map { Point(Double($0) * 10, 0) })
        let path = [Point(20, -30), Point(20, 30), Point(100, 30), Point(100, -30)]
        let cuts = PartialEraser(radius: 3).cut(curve, along: path)
        #expect(cuts.count == 2)
        #expect(EraserReference.mismatches(cuts, curve: curve, path: path, radius: 3).isEmpty)
    }

    @Test func arcGrazingTheEraserEdgeStaysAccurate() {
        let centre = Point(50, 50)
        for radius in [19.999, 20, 20.001, 20.05, 19.95] {
            let arc = SmoothCurve(
                points: (0...24).map { centre + Point(cos(Double($0) / 8), sin(Double($0) / 8)) * 20 }
            )
            let cuts = PartialEraser(radius: radius).cut(arc, along: [centre])
            #expect(EraserReference.mismatches(cuts, curve: arc, path: [centre], radius: radius).isEmpty, "r \(radius)")
        }
    }

    @Test func dotIsCutWholeWhenTouched() {
        let dot = SmoothCurve(points: [Point(10, 10)])
        #expect(PartialEraser(radius: 2).cut(dot, along: [Point(11, 11)]) == [ParameterInterval(0, 1)])
        #expect(PartialEraser(radius: 2).cut(dot, along: [Point(20, 0), Point(20, 20)]).isEmpty)
        #expect(PartialEraser(radius: 2).cut(dot, along: [Point(0, 11), Point(20, 11)]) == [ParameterInterval(0, 1)])
    }

    @Test func repeatedPointsInStrokeAndPathAreFine() {
        let curve = SmoothCurve(points: [Point(0, 0), Point(0, 0), Point(10, 0), Point(10, 0), Point(20, 0)])
        let path = [Point(10, 1), Point(10, 1), Point(10, 1)]
        let cuts = PartialEraser(radius: 2).cut(curve, along: path)
        #expect(EraserReference.mismatches(cuts, curve: curve, path: path, radius: 2).isEmpty)
        #expect(cuts.count == 1 && cuts[0].lower < 2 && cuts[0].upper > 3)
        let still = SmoothCurve(points: [Point(3, 3), Point(3, 3), Point(3, 3)])
        #expect(PartialEraser(radius: 1).cut(still, along: [Point(3, 3.5)]) == [ParameterInterval(0, 2)])
    }

    @Test func hostileInputCutsNothing() {
        let curve = SmoothCurve(points: [Point(0, 0), Point(10, 0), Point(20, 5)])
        let path = [Point(10, 0)]
        #expect(PartialEraser(radius: .nan).cut(curve, along: path).isEmpty)
        #expect(PartialEraser(radius: .infinity).cut(curve, along: path).isEmpty)
        #expect(PartialEraser(radius: -1).cut(curve, along: path).isEmpty)
        #expect(PartialEraser(radius: 3).cut(curve, along: []).isEmpty)
        #expect(PartialEraser(radius: 3).cut(curve, along: [Point(.nan, 0), Point(10, 0)]).isEmpty)
        #expect(PartialEraser(radius: 3).cut(curve, along: [Point(.infinity, 0)]).isEmpty)
        #expect(PartialEraser(radius: 3).cut(SmoothCurve(points: []), along: path).isEmpty)
        let poisoned = SmoothCurve(points: [Point(0, 0), Point(10, 0), Point(.nan, 5), Point(30, 0), Point(40, 0)])
        _ = PartialEraser(radius: 3).cut(poisoned, along: path)
        let huge = SmoothCurve(points: [Point(-1e308, 0), Point(1e308, 1e308), Point(0, -1e308)])
        _ = PartialEraser(radius: 1e300).cut(huge, along: [Point(1e308, -1e308), Point(-1e308, 0)])
        _ = PartialEraser(radius: 3).cut(huge, along: [Point(0, 0)])
    }
}
