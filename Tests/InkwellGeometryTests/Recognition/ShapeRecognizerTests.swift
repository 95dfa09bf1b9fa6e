import Foundation
import Testing

@testable import InkwellGeometry

@Suite struct ShapeRecognizerTests {
    let recognizer = ShapeRecognizer()

    /// `corners` joined by straight runs of `steps` points each.
    static func polyline(_ corners: [Point], steps: Int = 12) -> [Point] {
        var points: [Point] = []
        for index in 1..<corners.count {
            for step in 0..<steps {
                points.append(corners[index - 1].interpolated(to: corners[index], Double(step) / Double(steps)))
            }
        }
        return points + [corners[corners.count - 1]]
    }

    static func ellipse(center: Point, radiusX: Double, radiusY: Double, rotation: Double, count: Int = 60) -> [Point] {
        (0...count).map { index in
            let angle = 2 * Double.pi * Double(index) / Double(count)
            let u = radiusX * cos(angle)
            let v = radiusY * sin(angle)
            return center + Point(u * cos(rotation) - v * sin(rotation), u * sin(rotation) + v * cos(rotation))
        }
    }

    static func isClose(_ a: Point, _ b: Point, within tolerance: Double) -> Bool { a.distance(to: b) <= tolerance }

    @Test func resamplingSpacesPointsEvenlyAndKeepsTheEnds() {
        let samples = [Point(0, 0), Point(10, 0), Point(10, 30)].resampled(count: 5)
        #expect(samples == [Point(0, 0), Point(10, 0), Point(10, 10), Point(10, 20), Point(10, 30)])
        let loop = [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)].resampled(count: 8, closed: true)
        #expect(loop.count == 8)
        #expect(Self.isClose(loop[2], Point(10, 0), within: 1e-9) && Self.isClose(loop[7], Point(0, 5), within: 1e-9))
    }

    @Test func lineFitFindsTheMainDirection() throws {
        let fit = try #require(LineFit([Point(0, 0), Point(1, 1.01), Point(2, 1.99), Point(3, 3)]))
        #expect(abs(abs(fit.direction.x) - 0.5.squareRoot()) < 0.01)
        #expect(abs(fit.direction.length - 1) < 1e-12)
        #expect(LineFit([Point(1, 1), Point(1, 1)]) == nil)
        let vertical = try #require(LineFit([Point(5, 0), Point(5, 10)]))
        #expect(vertical.direction == Point(0, 1) || vertical.direction == Point(0, -1))
    }

    @Test func closureCutsAnOvershootButNotACrossing() {
        // A square that runs on past its start along the first edge.
        let square = Self.polyline([
            Point(0, 0), Point(0, 100), Point(100, 100), Point(100, 0), Point(0, 0), Point(0, 20),
        ])
        let samples = square.resampled(count: 64)
        let closure = Closure(samples: samples, tailFraction: 0.15, overshootWeight: 0.5)
        #expect(closure.opening < 0.05)
        #expect(!closure.isCrossing(samples, minimumTail: 0.03, minimumAngle: radians(45)))
        // A fish: both ends run on past the point where the stroke crosses itself.
        let fish = Self.polyline([Point(0, 0), Point(100, 100), Point(100, 0), Point(0, 100)])
        let fishSamples = fish.resampled(count: 64)
        let fishClosure = Closure(samples: fishSamples, tailFraction: 0.4, overshootWeight: 0.5)
        #expect(fishClosure.isCrossing(fishSamples, minimumTail: 0.03, minimumAngle: radians(45)))
    }

    @Test func loopsCountCornersAndTurnOnceAround() {
        let configuration = ShapeRecognizer.Configuration()
        let square = Loop(
            Self.polyline([Point(0, 0), Point(0, 100), Point(100, 100), Point(100, 0), Point(0, 0)]),
            configuration: configuration
        )
        #expect(square.corners.count == 4)
        #expect(abs(abs(square.totalTurning) - 2 * Double.pi) < 0.01)
        let star = (0...5).map { index in
            let angle = -Double.pi / 2 + Double(index) * 4 * Double.pi / 5
            return Point(50 * cos(angle), 50 * sin(angle))
        }
        let starLoop = Loop(Self.polyline(star), configuration: configuration)
        #expect(abs(abs(starLoop.totalTurning) - 4 * Double.pi) < 0.01, "a star turns twice")
    }

    @Test func ellipseFitRecoversCentreRadiiAndRotation() throws {
        let configuration = ShapeRecognizer.Configuration()
        let points = Self.ellipse(center: Point(40, -20), radiusX: 80, radiusY: 30, rotation: 0.3)
        let fit = try #require(EllipseFit(Loop(Array(points.dropLast()), configuration: configuration)))
        #expect(Self.isClose(fit.center, Point(40, -20), within: 0.5))
        #expect(abs(fit.radiusX - 80) < 1 && abs(fit.radiusY - 30) < 1)
        #expect(abs(fit.rotation - 0.3) < 0.01)
        #expect(fit.error < 0.001)
    }

    @Test func tidyShapesGetTheirExactGeometry() throws {
        let line = recognizer.recognize(Self.polyline([Point(10, 10), Point(110, 12)]))
        guard case .line(let start, let end) = line else {
            Issue.record("\(line)")
            return
        }
        #expect(start.y == 11 && end.y == 11, "within 5° of horizontal snaps, about the middle")
        #expect(Self.isClose(start, Point(10, 11), within: 0.05) && Self.isClose(end, Point(110, 11), within: 0.05))
        let box = recognizer.recognize(
            Self.polyline([Point(0, 0), Point(0, 60), Point(90, 60), Point(90, 0), Point(0, 0)])
        )
        guard case .rectangle(let corners) = box else {
            Issue.record("\(box)")
            return
        }
        let expected = [Point(0, 0), Point(0, 60), Point(90, 60), Point(90, 0)]
        for (corner, target) in zip(corners, expected) { #expect(Self.isClose(corner, target, within: 1e-6)) }
        let circle = recognizer.recognize(Self.ellipse(center: Point(5, 5), radiusX: 40, radiusY: 38, rotation: 0))
        guard case .ellipse(let center, let radiusX, let radiusY, let rotation) = circle else {
            Issue.record("\(circle)")
            return
        }
        #expect(
            Self.isClose(center, Point(5, 5), within: 0.5) && radiusX == radiusY && rotation == 0,
            "nearly round is a circle"
        )
    }

    @Test func rectanglesKeepTheirRotationUnlessNearlyAligned() throws {
        let angle = 0.4
        let turn = { (point: Point) in
            Point(point.x * cos(angle) - point.y * sin(angle), point.x * sin(angle) + point.y * cos(angle))
        }
        let shape = recognizer.recognize(
            Self.polyline([Point(0, 0), Point(0, 60), Point(90, 60), Point(90, 0), Point(0, 0)].map(turn))
        )
        guard case .rectangle(let corners) = shape else {
            Issue.record("\(shape)")
            return
        }
        let side = corners[1] - corners[0]
        let next = corners[2] - corners[1]
        #expect(abs(side.dot(next)) < 1e-6 * side.length * next.length, "right angles")
        #expect(abs(abs(atan2(next.y, next.x)) - angle) < 0.01)
    }

    @Test func aSquareStandingOnACornerIsADiamond() {
        let shape = recognizer.recognize(
            Self.polyline([Point(50, 0), Point(0, 40), Point(50, 80), Point(100, 40), Point(50, 0)])
        )
        guard case .diamond(let corners) = shape else {
            Issue.record("\(shape)")
            return
        }
        #expect(corners.count == 4)
        #expect(Self.isClose(corners[0], Point(50, 0), within: 1e-6), "starts where the stroke starts")
        #expect(corners[0].x == corners[2].x && corners[1].y == corners[3].y, "upright diagonals")
    }

    @Test func arrowsAreSplitIntoShaftAndSymmetricHead() throws {
        let stroke = Self.polyline([Point(0, 0), Point(100, 0), Point(75, -15), Point(100, 0), Point(75, 15)])
        let shape = recognizer.recognize(stroke)
        guard case .arrow(let tail, let tip, let head) = shape else {
            Issue.record("\(shape)")
            return
        }
        #expect(tail == Point(0, 0) && tip.y == 0 && Self.isClose(tip, Point(100, 0), within: 1))
        #expect(head.count == 2 && Self.isClose(head[0], Point(75, -15), within: 1))
        #expect(Self.isClose(head[1], Point(75, 15), within: 1))
        #expect(abs(head[0].distance(to: tip) - head[1].distance(to: tip)) < 1e-9, "symmetric barbs")
        #expect(shape.polyline == [tail, tip, head[0], tip, head[1]])
        let parts = try #require(ArrowParts(stroke.resampled(count: 64), shaftReach: 0.75))
        #expect(parts.headRadius < 0.3 && parts.barbReach > 0.14)
    }

    @Test func freeStrokesStayInk() {
        #expect(recognizer.recognize([]) == .none)
        #expect(recognizer.recognize([Point(3, 3)]) == .none)
        #expect(recognizer.recognize([Point(3, 3), Point(3, 3), Point(3, 3)]) == .none)
        #expect(recognizer.recognize([Point(0, 0), Point(.nan, 1)]) == .none)
        let zigzag = Self.polyline([Point(0, 0), Point(20, 40), Point(40, 0), Point(60, 40), Point(80, 0)])
        #expect(recognizer.recognize(zigzag) == .none)
        let tick = Self.polyline([Point(0, 50), Point(30, 100), Point(100, 0)])
        #expect(recognizer.recognize(tick) == .none)
    }

    @Test func polylinesCloseWhereTheyStart() {
        let triangle = RecognizedShape.triangle([Point(0, 0), Point(10, 0), Point(5, 8)])
        #expect(triangle.polyline == [Point(0, 0), Point(10, 0), Point(5, 8), Point(0, 0)])
        let ellipse = RecognizedShape.ellipse(center: Point(1, 2), radiusX: 3, radiusY: 4, rotation: 0)
        #expect(ellipse.polyline.count == RecognizedShape.ellipseSampleCount)
        #expect(ellipse.polyline.first == ellipse.polyline.last)
        #expect(RecognizedShape.none.polyline.isEmpty && RecognizedShape.none.kind == "none")
    }

    @Test func geometryIsWrittenAsJSONWithAFixedKeyOrder() {
        let ellipse = RecognizedShape.ellipse(
            center: Point(1.23456789, -0.0000001),
            radiusX: 3,
            radiusY: 4,
            rotation: 0.5
        )
        #expect(
            ellipse.geometryJSON(decimals: 6)
                == #"{"center": [1.234568, 0], "radiusX": 3.0, "radiusY": 4.0, "rotation": 0.5}"#
        )
        #expect(RecognizedShape.none.geometryJSON() == "{}")
    }
}
