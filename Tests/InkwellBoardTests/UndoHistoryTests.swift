import InkwellBoard
import InkwellSync
import Testing

@Suite struct UndoHistoryTests {
    @Test func undoAndRedoWalkTheUsersOwnChanges() {
        var alice = Author(1)
        let first = alice.change(add(line(3)))
        let second = alice.change(add(line(3, y: 5)))
        var history = UndoHistory()
        history.record(first.id)
        history.record(second.id)
        var board = BoardState.after([first, second])

        let undo = history.undo()
        #expect(undo == [.undo(second.id)])
        board.apply(alice.change(undo!))
        #expect(board.drawing.map(\.id) == [stroke(of: first)])

        let redo = history.redo()
        #expect(redo == [.redo(second.id)])
        board.apply(alice.change(redo!))
        #expect(board.visibleStrokeCount == 2)
        #expect(!history.canRedo)
    }

    @Test func aNewActionClearsRedo() {
        var history = UndoHistory()
        let a = ChangeID(replica: ReplicaID(high: 1, low: 1), seq: 1)
        let b = ChangeID(replica: ReplicaID(high: 1, low: 1), seq: 2)
        history.record(a)
        _ = history.undo()
        #expect(history.canRedo)
        history.record(b)
        #expect(!history.canRedo)
        #expect(history.undo() == [.undo(b)])
        #expect(history.undo() == nil)
    }

    @Test func keepsOnlyItsCapacityAndForgetsCompactedChanges() {
        var history = UndoHistory(capacity: 3)
        let ids = (1...5).map { ChangeID(replica: ReplicaID(high: 1, low: 1), seq: UInt64($0)) }
        for id in ids { history.record(id) }
        #expect(history.done == Array(ids.suffix(3)))
        history.forget { $0.seq <= 4 }
        #expect(history.done == [ids[4]])
    }

    @Test func aBurstOfTypingIntoOneBoxIsOneStep() {
        var history = UndoHistory()
        let ids = (1...5).map { ChangeID(replica: ReplicaID(high: 1, low: 1), seq: UInt64($0)) }
        let box = StrokeID(change: ids[0])
        history.record(ids[0], typingInto: box)
        history.join(ids[1], typingInto: box)
        history.join(ids[2], typingInto: StrokeID(change: ids[2]))
        history.record(ids[3])
        history.join(ids[4], typingInto: box)
        #expect(history.undo() == [.undo(ids[4])], "a stroke between ends the burst")
        #expect(history.undo() == [.undo(ids[3])])
        #expect(history.undo() == [.undo(ids[2])])
        #expect(history.undo() == [.undo(ids[1]), .undo(ids[0])])
        #expect(history.redo() == [.redo(ids[0]), .redo(ids[1])])
        // A pause, or the editor closing, ends a burst.
        var paused = UndoHistory()
        paused.record(ids[0], typingInto: box, wallMilliseconds: 1_000)
        paused.join(ids[1], typingInto: box, wallMilliseconds: 6_000)
        paused.join(ids[2], typingInto: box, wallMilliseconds: 11_001)
        paused.endBurst()
        paused.join(ids[3], typingInto: box, wallMilliseconds: 11_002)
        #expect(paused.undo() == [.undo(ids[3])])
        #expect(paused.undo() == [.undo(ids[2])])
        #expect(paused.undo() == [.undo(ids[1]), .undo(ids[0])])
    }
}
