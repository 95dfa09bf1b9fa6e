import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import Testing

@Suite struct PenUpTests {
    /// A hand-drawn box: four wobbly sides.
    static let roughBox: [Point] = {
        let corners = [Point(0, 0), Point(200, 4), Point(196, 120), Point(-3, 116), Point(2, 1)]
        return zip(corners, corners.dropFirst()).flatMap { a, b in
            (0..<20).map { step -> Point in
                let t = Double(step) / 20
                let wobble = sin(Double(step) * 1.7) * 1.5
                return a.interpolated(to: b, t) + Point(wobble, -wobble)
            }
        } + [corners.last!]
    }()

    @Test func aRecognisedShapeIsCommittedAsItsCleanOutline() {
        let (operations, shape) = PenUp().operations(for: Self.roughBox, pressures: nil, style: pen)
        #expect(shape.kind == "rectangle")
        guard case .addStroke(_, let points, nil) = operations.first else {
            Issue.record("expected one added stroke")
            return
        }
        #expect(operations.count == 1)
        #expect(points.count < Self.roughBox.count)
        #expect(points.allSatisfy { InkGrid.snap($0) == $0 })
    }

    @Test func inkThatIsNoShapeStaysInkOnTheGrid() {
        let scribble = (0..<40).map { Point(Double($0) * 3.01, sin(Double($0)) * 17.3) }
        let (operations, shape) = PenUp().operations(for: scribble, pressures: scribble.map { _ in 0.4 }, style: pen)
        #expect(shape == .none)
        guard case .addStroke(_, let points, let pressures) = operations.first else {
            Issue.record("expected one added stroke")
            return
        }
        #expect(points == scribble.map(InkGrid.snap))
        #expect(pressures == scribble.map { _ in InkGrid.snap(pressure: 0.4) })
    }

    @Test func recognitionCanBeSwitchedOff() {
        let (_, shape) = PenUp(recognizesShapes: false).operations(for: Self.roughBox, pressures: nil, style: pen)
        #expect(shape == .none)
    }

    @Test func aStreamedStrokeIsReplacedInTheSameChangeSoOneUndoBringsItBack() {
        var alice = Author(1)
        let streamed = alice.change(add(Self.roughBox.map(InkGrid.snap)))
        let (operations, _) = PenUp().operations(
            for: Self.roughBox,
            pressures: nil,
            style: pen,
            replacing: stroke(of: streamed)
        )
        let replaced = alice.change(operations)
        #expect(BoardState.after([streamed, replaced]).drawing.map(\.id) == [stroke(of: replaced, 1)])
        let undo = alice.change(.undo(replaced.id))
        #expect(BoardState.after([streamed, replaced, undo]).drawing.map(\.id) == [stroke(of: streamed)])
    }
}
