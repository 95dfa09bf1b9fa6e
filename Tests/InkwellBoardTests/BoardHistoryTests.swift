import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import Testing

/// A board's history: the past from a prefix of the total order, and a restore that makes the board look
/// exactly as it did, undone by one undo. Writes `Conformance/history.json`, which the page's
/// `board-history.js` must reproduce operation for operation.
@Suite struct BoardHistoryTests {
    static let restorer = Author(15)

    /// What a board shows, ids aside: each stroke's look, bottom to top.
    static func appearance(_ board: BoardState) -> [[String: String]] {
        board.drawing.map {
            [
                "colour": "\($0.colour.rgba)", "width": "\($0.width)", "transform": "\($0.transform)",
                "points": "\($0.points)", "pressures": "\(String(describing: $0.pressures))", "pieces": "\($0.pieces)",
                "text": "\(String(describing: $0.text))", "image": "\(String(describing: $0.image))",
            ]
        }
    }

    /// The restoring change, after every change of the history.
    static func restoring(_ operations: [BoardOperation], after history: [BoardChange]) -> BoardChange {
        var author = restorer
        for change in history { author.saw(change) }
        return author.change(operations)
    }

    @Test func restoringAnyEarlierPointMakesTheBoardLookAsItDidAndOneUndoTakesItBack() throws {
        for seed in [17, 18, 19] as [UInt64] {
            let history = BoardHistory.timeline(BoardVectorTests.randomSession(seed: seed), board: "main")
            let current = BoardHistory.board(after: history.count, of: history, board: "main")
            var copied = 0
            for count in stride(from: 0, through: history.count, by: 5) {
                let past = BoardHistory.board(after: count, of: history, board: "main")
                let next = ChangeID(replica: Self.restorer.replica, seq: 1)
                let operations = BoardHistory.restore(current, to: past, change: next)
                copied += operations.filter { if case .addStroke = $0 { true } else { false } }.count
                let restore = Self.restoring(operations, after: history)
                #expect(restore.id == next)
                var restored = current
                _ = restored.apply(restore)
                try restored.checkInvariants()
                let (shown, was) = (Self.appearance(restored), Self.appearance(past))
                #expect(shown.count == was.count, "seed \(seed), restoring to change \(count)")
                for (index, (now, then)) in zip(shown, was).enumerated() where now != then {
                    Issue.record("seed \(seed), restoring to change \(count), element \(index): \(now) ≠ \(then)")
                    break
                }
                var author = Self.restorer
                for change in history + [restore] { author.saw(change) }
                author.seq = 1
                _ = restored.apply(author.change(.undo(restore.id)))
                #expect(
                    restored.canonicalHash == current.canonicalHash,
                    "seed \(seed), undoing the restore to \(count)"
                )
            }
            #expect(copied > 0, "some restore drew a stroke again")
            #expect(
                BoardHistory.restore(current, to: current, change: ChangeID(replica: Self.restorer.replica, seq: 1))
                    .isEmpty
            )
        }
    }

    @Test func historyVectorsAreCurrent() throws {
        let session = BoardVectorTests.randomSession(seed: 17)
        let history = BoardHistory.timeline(session, board: "main")
        let current = BoardHistory.board(after: history.count, of: history, board: "main")
        let next = ChangeID(replica: Self.restorer.replica, seq: 1)
        let cases = stride(from: 0, to: history.count, by: 23).map { count -> [String: Any] in
            let past = BoardHistory.board(after: count, of: history, board: "main")
            let restore = Self.restoring(BoardHistory.restore(current, to: past, change: next), after: history)
            var restored = current
            _ = restored.apply(restore)
            return [
                "count": count,
                "pastHash": past.canonicalHash,
                "restore": VectorJSON.change(restore),
                "restoredHash": restored.canonicalHash,
            ]
        }
        try ConformanceVectorFile(name: "history.json").check([
            "format": "inkwell-history-conformance/1",
            "about": "The changes of board.json's case \"random session\", in the total order (stamp, then change "
                + "id), are `timeline`; the board after its first `count` changes has `pastHash`. Restoring the whole "
                + "board to it is exactly `restore` (its operations), after which the board has `restoredHash`.",
            "timeline": history.map(\.id).map(VectorJSON.id),
            "cases": cases,
        ])
    }
}
