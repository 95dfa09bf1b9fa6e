import InkwellBoard
import InkwellGeometry
import InkwellSync
import Testing

@Suite struct BoardSemanticsTests {
    @Test func anAddedStrokeIsVisibleWhole() {
        var alice = Author(1)
        let drawn = alice.change(add(line(5)))
        let board = BoardState.after([drawn])
        #expect(board.pieces(stroke(of: drawn)) == [interval(0, 4)])
        #expect(board.drawing.map(\.points) == [line(5)])
    }

    @Test func eraseBeforeAddIsKept() {
        var alice = Author(1)
        var bob = Author(2)
        let drawn = alice.change(add(line(5)))
        bob.saw(drawn)
        let erased = bob.change(.erase(stroke(of: drawn), [interval(1, 2.5)]))
        let board = BoardState.after([erased, drawn])
        #expect(board.pieces(stroke(of: drawn)) == [interval(0, 1), interval(2.5, 4)])
        #expect(board.canonicalEncoding() == BoardState.after([drawn, erased]).canonicalEncoding())
    }

    @Test func appendsLandInTheCreatorsOrderWhateverTheArrival() {
        var alice = Author(1)
        let drawn = alice.change(add([Point(0, 0)]))
        let id = stroke(of: drawn)
        let first = alice.change(.appendPoints(id, points: [Point(1, 0)], pressures: nil))
        let second = alice.change(.appendPoints(id, points: [Point(2, 0), Point(3, 0)], pressures: nil))
        let expected = [Point(0, 0), Point(1, 0), Point(2, 0), Point(3, 0)]
        for order in [
            [drawn, first, second], [second, first, drawn], [first, drawn, second], [second, drawn, first],
        ] {
            #expect(BoardState.after(order).drawingStroke(id)?.points == expected)
        }
    }

    @Test func onlyTheCreatorMayAppend() {
        var alice = Author(1)
        var mallory = Author(9)
        let drawn = alice.change(add(line(2)))
        let hijack = mallory.change(.appendPoints(stroke(of: drawn), points: [Point(99, 99)], pressures: nil))
        #expect(BoardState.after([drawn, hijack]).drawingStroke(stroke(of: drawn))?.points == line(2))
    }

    @Test func concurrentErasesOfOneStrokeUnion() {
        var alice = Author(1)
        var bob = Author(2)
        let drawn = alice.change(add(line(11)))
        bob.saw(drawn)
        let id = stroke(of: drawn)
        let a = alice.change(.erase(id, [interval(1, 3)]))
        let b = bob.change(.erase(id, [interval(2, 5), interval(8, 9)]))
        let board = BoardState.after([drawn, b, a])
        #expect(board.pieces(id) == [interval(0, 1), interval(5, 8), interval(9, 10)])
    }

    @Test func undoingAnEraseBringsBackOnlyWhatItHid() {
        var alice = Author(1)
        var bob = Author(2)
        let drawn = alice.change(add(line(11)))
        bob.saw(drawn)
        let id = stroke(of: drawn)
        let aliceErase = alice.change(.erase(id, [interval(1, 4)]))
        let bobErase = bob.change(.erase(id, [interval(3, 6)]))
        let undo = alice.change(.undo(aliceErase.id))
        let board = BoardState.after([drawn, aliceErase, undo, bobErase])
        #expect(board.pieces(id) == [interval(0, 3), interval(6, 10)])
        let redo = alice.change(.redo(aliceErase.id))
        var redone = board
        redone.apply(redo)
        #expect(redone.pieces(id) == [interval(0, 1), interval(6, 10)])
    }

    @Test func undoArrivingBeforeItsTargetStillApplies() {
        var alice = Author(1)
        let drawn = alice.change(add(line(3)))
        let undo = alice.change(.undo(drawn.id))
        let board = BoardState.after([undo, drawn])
        #expect(board.visibleStrokeCount == 0)
    }

    @Test func nobodyCanUndoSomeoneElsesChange() {
        var alice = Author(1)
        var mallory = Author(9)
        let drawn = alice.change(add(line(3)))
        let undo = mallory.change(.undo(drawn.id))
        #expect(BoardState.after([drawn, undo]).visibleStrokeCount == 1)
    }

    @Test func latestAttributeWriteWinsAndUndoBringsBackThePreviousOne() {
        var alice = Author(1)
        var bob = Author(2)
        let drawn = alice.change(add(line(3)))
        let id = stroke(of: drawn)
        bob.saw(drawn)
        let red = Colour(red: 255, green: 0, blue: 0)
        let blue = Colour(red: 0, green: 0, blue: 255)
        let toRed = bob.change(.set(id, .colour(red)))
        alice.saw(toRed)
        let toBlue = alice.change(.set(id, .colour(blue)))
        #expect(BoardState.after([toBlue, drawn, toRed]).drawingStroke(id)?.colour == blue)
        let undo = alice.change(.undo(toBlue.id))
        #expect(BoardState.after([drawn, toRed, toBlue, undo]).drawingStroke(id)?.colour == red)
        let undoBoth = bob.change(.undo(toRed.id))
        #expect(BoardState.after([drawn, toRed, toBlue, undo, undoBoth]).drawingStroke(id)?.colour == .black)
    }

    @Test func clearHidesWhatCameBeforeItAndIsUndoable() {
        var alice = Author(1)
        var bob = Author(2)
        let before = alice.change(add(line(3)))
        bob.saw(before)
        let clear = bob.change(.clear)
        alice.saw(clear)
        let after = alice.change(add(line(3, y: 5)))
        let board = BoardState.after([after, clear, before])
        #expect(board.drawing.map(\.id) == [stroke(of: after)])
        let undo = bob.change(.undo(clear.id))
        #expect(
            BoardState.after([before, after, clear, undo]).drawing.map(\.id) == [stroke(of: before), stroke(of: after)]
        )
    }

    @Test func concurrentClearsUndoOneTheOtherStillHolds() {
        var alice = Author(1)
        var bob = Author(2)
        let early = alice.change(add(line(2)))
        bob.saw(early)
        let bobClear = bob.change(.clear)
        let aliceClear = alice.change(.clear)
        let undoAlice = alice.change(.undo(aliceClear.id))
        #expect(BoardState.after([early, aliceClear, bobClear, undoAlice]).visibleStrokeCount == 0)
        let undoBob = bob.change(.undo(bobClear.id))
        #expect(BoardState.after([early, aliceClear, bobClear, undoAlice, undoBob]).visibleStrokeCount == 1)
    }

    @Test func zOrderStacksStrokesAndTiesKeepCreationOrder() {
        var alice = Author(1)
        let first = alice.change(add(line(2)))
        let second = alice.change(add(line(2, y: 1)))
        let third = alice.change(add(line(2, y: 2)))
        let lift = alice.change(.set(stroke(of: first), .zOrder(1)))
        let board = BoardState.after([third, lift, first, second])
        #expect(board.drawing.map(\.id) == [stroke(of: second), stroke(of: third), stroke(of: first)])
    }

    @Test func deletingHidesTheWholeStrokeAndUndoBringsItBack() {
        var alice = Author(1)
        let drawn = alice.change(add(line(4)))
        let delete = alice.change(.set(stroke(of: drawn), .deleted(true)))
        #expect(BoardState.after([drawn, delete]).visibleStrokeCount == 0)
        let undo = alice.change(.undo(delete.id))
        #expect(BoardState.after([drawn, delete, undo]).visibleStrokeCount == 1)
    }

    @Test func oneChangeCanAddSeveralStrokesUndoneTogether() {
        var alice = Author(1)
        let both = alice.change(add(line(2)), add(line(2, y: 9)))
        #expect(BoardState.after([both]).drawing.map(\.id) == [stroke(of: both, 0), stroke(of: both, 1)])
        let undo = alice.change(.undo(both.id))
        #expect(BoardState.after([both, undo]).visibleStrokeCount == 0)
    }

    @Test func aOnePointStrokeIsADotUntilErased() {
        var alice = Author(1)
        let dot = alice.change(add([Point(5, 5)]))
        #expect(BoardState.after([dot]).pieces(stroke(of: dot)) == [interval(0, 0)])
        let erase = alice.change(.erase(stroke(of: dot), [interval(0, 0.5)]))
        #expect(BoardState.after([dot, erase]).visibleStrokeCount == 0)
    }

    @Test func erasingEverythingHidesTheStroke() {
        var alice = Author(1)
        let drawn = alice.change(add(line(5)))
        let erase = alice.change(.erase(stroke(of: drawn), [interval(0, 4)]))
        #expect(BoardState.after([drawn, erase]).visibleStrokeCount == 0)
    }

    @Test func undoingAnAppendHidesItsPointsWithoutMovingLaterOnes() {
        var alice = Author(1)
        let drawn = alice.change(add(line(3)))
        let id = stroke(of: drawn)
        let middle = alice.change(.appendPoints(id, points: [Point(30, 0), Point(40, 0)], pressures: nil))
        let last = alice.change(.appendPoints(id, points: [Point(50, 0), Point(60, 0)], pressures: nil))
        let undo = alice.change(.undo(middle.id))
        let board = BoardState.after([drawn, middle, last, undo])
        #expect(board.drawingStroke(id)?.points.count == 7)
        #expect(board.pieces(id) == [interval(0, 2), interval(5, 6)])
    }

    @Test func duplicatesAndOtherBoardsChangeNothing() {
        var alice = Author(1)
        var elsewhere = Author(2, board: "other")
        let drawn = alice.change(add(line(3)))
        let foreign = elsewhere.change(add(line(3)))
        var board = BoardState(board: "main")
        #expect(!board.apply(drawn).isEmpty)
        let bytes = board.canonicalEncoding()
        #expect(board.apply(drawn).isEmpty)
        #expect(board.apply(foreign).isEmpty)
        #expect(board.canonicalEncoding() == bytes)
        #expect(!board.contains(foreign.id))
    }

    @Test func malformedOperationsAreIgnoredAlike() {
        var alice = Author(1)
        let bad: [BoardOperation] = [
            add([]),
            add([Point(.nan, 0)]),
            add([Point(1e300, 0)]),
            add(line(3) + [Point(0, .nan)]),
            add(line(2) + [Point(.infinity, 0)] + line(2, y: 5)),
            add(line(4) + [Point(0, -1e300)]),
            add(line(2) + [Point(BoardLimits.maximumCoordinate.nextUp, 0)]),
            add(line(2), style: StrokeStyle(colour: .black, width: 0)),
            add(line(2), style: StrokeStyle(colour: .black, width: .infinity)),
            .addStroke(pen, points: line(2), pressures: [0.5]),
            .addStroke(pen, points: line(2), pressures: [0.5, 2]),
        ]
        let changes = bad.map { alice.change($0) }
        let board = BoardState.after(changes)
        #expect(board.visibleStrokeCount == 0)
        let drawn = alice.change(add(line(3)))
        let id = stroke(of: drawn)
        let nonsense = alice.change(
            .erase(id, [interval(.nan, 1), interval(2, 1)]),
            .set(id, .width(-1)),
            .set(id, .transform(Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)))
        )
        let after = BoardState.after([drawn, nonsense])
        #expect(after.pieces(id) == [interval(0, 2)])
        #expect(after.drawingStroke(id)?.width == 2)
        #expect(after.drawingStroke(id)?.transform == .identity)
    }

    @Test func deltasNameWhatChanged() {
        var alice = Author(1)
        let first = alice.change(add(line(3)))
        let second = alice.change(add(line(3, y: 4)))
        var board = BoardState.after([first, second])
        let erase = alice.change(.erase(stroke(of: first), [interval(0, 1)]))
        let delta = board.apply(erase)
        #expect(delta.strokes == [stroke(of: first)])
        #expect(!delta.everything)
        #expect(board.apply(alice.change(.clear)).everything)
    }
}
