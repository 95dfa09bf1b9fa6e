import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import Testing

/// Dropping the changes a board calls inert changes nothing a user can see, now or after anything that
/// arrives later, and compacting again from what is left stays safe.
@Suite struct InertChangesTests {
    /// Random sessions of four replicas, each drawing on its own view and hearing the others late; a cut
    /// of random prefixes; more changes after it (some from views that never heard of what was dropped),
    /// a second compaction, and more again. `INKWELL_SEED` reproduces a failure.
    @Test func droppingInertChangesKeepsEveryFutureDrawing() throws {
        let base = SeededGenerator.seedFromEnvironment()
        print("inert changes: INKWELL_SEED=\(base)")
        var dropped = 0
        var held = 0
        for round in 0..<12 {
            let seed = base &+ UInt64(round)
            var generator = SplitMix64(seed: seed)
            var session = ReplicaSession(replicas: 4, using: &generator)
            session.run(steps: 400, using: &generator)
            let history = session.changes

            let full = BoardState.after(history)
            let cut = session.randomCut(using: &generator)
            let inert = Set(full.inertChanges(among: history, through: cut))
            let kept = history.filter { !inert.contains($0.id) }
            #expect(
                BoardState.after(kept).canonicalHash == full.canonicalHash,
                "seed \(seed): the drawing changed when \(inert.count) inert changes were dropped"
            )

            session.run(steps: 200, using: &generator)
            let later = Array(session.changes.dropFirst(history.count))
            let fullLater = BoardState.after(history + later)
            let compacted = BoardState.after(kept + later)
            #expect(
                compacted.canonicalHash == fullLater.canonicalHash,
                "seed \(seed): a later change showed what was dropped"
            )

            let secondCut = session.randomCut(atLeast: cut, using: &generator)
            let laterInert = Set(fullLater.inertChanges(among: history + later, through: secondCut))
            #expect(
                inert.isSubset(of: laterInert),
                "seed \(seed): what stopped mattering within a cut stopped mattering within a later one"
            )
            let secondInert = Set(compacted.inertChanges(among: kept + later, through: secondCut))
            // What a compacted device leaves out, a device that holds everything must call inert too, or it
            // refuses that device's snapshot: erases and deletions of a dropped stroke stay as its proof.
            let notInert = secondInert.subtracting(laterInert)
            #expect(
                notInert.isEmpty,
                "seed \(seed): after compacting, \(notInert.sorted().prefix(3)) looked inert but still matter"
            )
            let keptAgain = (kept + later).filter { !secondInert.contains($0.id) }
            session.run(steps: 200, using: &generator)
            let last = Array(session.changes.dropFirst(history.count + later.count))
            #expect(
                BoardState.after(keptAgain + last).canonicalHash
                    == BoardState.after(session.changes).canonicalHash,
                "seed \(seed): compacting twice lost or showed something"
            )
            dropped += inert.count + secondInert.count
            held += history.count + later.count
        }
        print("inert changes: dropped \(dropped) of \(held)")
        #expect(dropped > held / 10, "honest sessions settle, so a good share of their history stops mattering")
    }

    @Test func anUndoneStrokeIsInertOnceItsAuthorSettles() {
        var alice = Author(1)
        let drawn = alice.change(add(line(4)))
        let undo = alice.change(.undo(drawn.id))
        let open = [drawn, undo]
        #expect(BoardState.after(open).inertChanges(among: open, through: vector(alice, 2)).isEmpty)

        let settle = alice.change(.settle(through: 2, inactive: [1]))
        let settled = open + [settle]
        let board = BoardState.after(settled)
        #expect(Set(board.inertChanges(among: settled, through: vector(alice, 3))) == [drawn.id, undo.id])
        #expect(
            board.inertChanges(among: settled, through: vector(alice, 2)) == [undo.id],
            "with the settle outside the cut, the stroke may not be dropped, but the undo no longer counts"
        )
    }

    @Test func aStrokeErasedAwayIsInertOnceItsErasesAreSettledAndTheErasesStayAsItsProof() {
        var alice = Author(1)
        var bob = Author(2)
        let drawn = alice.change(add(line(5)))
        bob.saw(drawn)
        let half = bob.change(.erase(stroke(of: drawn), [interval(-1, 2.5)]))
        let rest = bob.change(.erase(stroke(of: drawn), [interval(2, 5)]))
        let other = alice.change(add(line(3, y: 10)))
        let changes = [drawn, half, rest, other]
        let unsettled = BoardState.after(changes)
        #expect(unsettled.visibleStrokeCount == 1)
        #expect(unsettled.inertChanges(among: changes, through: vector(alice, 2, bob, 2)).isEmpty)

        let aliceSettles = alice.change(.settle(through: 2, inactive: []))
        let bobSettles = bob.change(.settle(through: 2, inactive: []))
        let all = changes + [aliceSettles, bobSettles]
        let board = BoardState.after(all)
        #expect(Set(board.inertChanges(among: all, through: vector(alice, 3, bob, 3))) == [drawn.id])
        #expect(
            board.inertChanges(among: all, through: vector(alice, 3, bob, 2)).isEmpty,
            "an erase that may still be undone keeps the stroke"
        )
    }

    @Test func aDeletedOrClearedStrokeIsInertAndTheProofOfItsEndStays() {
        var alice = Author(1)
        var bob = Author(2)
        let deleted = alice.change(add(line(3)))
        let delete = alice.change(.set(stroke(of: deleted), .deleted(true)))
        let cleared = alice.change(add(line(3, y: 5)))
        bob.saw(cleared)
        let recolour = bob.change(.set(stroke(of: cleared), .colour(.black)))
        let clear = bob.change(.clear)
        alice.saw(clear)
        let after = alice.change(add(line(3, y: 9)))
        let deleteAfter = alice.change(.set(stroke(of: after), .deleted(true)))
        let settles = [alice.change(.settle(through: 5, inactive: [])), bob.change(.settle(through: 2, inactive: []))]
        let all = [deleted, delete, cleared, recolour, clear, after, deleteAfter] + settles
        let board = BoardState.after(all)
        #expect(
            Set(board.inertChanges(among: all, through: vector(alice, 6, bob, 3)))
                == [deleted.id, delete.id, cleared.id, recolour.id, after.id],
            "the clear proves the first stroke's end, so its deletion goes too; the last one's deletion stays"
        )
    }

    @Test func anUndoOfASettledChangeIsInertAndALaterWriteSupersedesAnEarlierOne() {
        var alice = Author(1)
        let drawn = alice.change(add(line(3)))
        let red = alice.change(.set(stroke(of: drawn), .colour(Colour(red: 255, green: 0, blue: 0))))
        let blue = alice.change(.set(stroke(of: drawn), .colour(Colour(red: 0, green: 0, blue: 255))))
        let settle = alice.change(.settle(through: 3, inactive: []))
        let lateUndo = alice.change(.undo(blue.id))
        let all = [drawn, red, blue, settle, lateUndo]
        let board = BoardState.after(all)
        #expect(Set(board.inertChanges(among: all, through: vector(alice, 5))) == [red.id, lateUndo.id])
        #expect(board.drawing.first?.colour == Colour(red: 0, green: 0, blue: 255), "the late undo is void")
    }

    @Test func droppingAChangeThatIsNotInertShows() {
        var alice = Author(1)
        let drawn = alice.change(add(line(3)))
        let settle = alice.change(.settle(through: 1, inactive: []))
        let all = [drawn, settle]
        let board = BoardState.after(all)
        #expect(board.inertChanges(among: all, through: vector(alice, 2)).isEmpty)
        #expect(BoardState.after([settle]).canonicalEncoding() != board.canonicalEncoding())
    }

    /// The engine asks through `DocumentTypes`: the board's rule for a type registered by its document,
    /// none for one registered by its edits alone, and none in a document holding a change it cannot read.
    @Test func theEngineFindsTheBoardsInertChangesThroughItsTypes() {
        var alice = Author(1)
        let drawn = alice.change(add(line(4)))
        let undo = alice.change(.undo(drawn.id))
        let settle = alice.change(.settle(through: 2, inactive: [1]))
        var other = Author(1, board: "other")
        other.seq = alice.seq
        let elsewhere = other.change(add(line(2)))
        let encoded = [drawn, undo, settle, elsewhere].map(\.encoded)
        let cut = vector(alice, 4)

        #expect(
            DocumentTypes(documents: [BoardState.self]).inertChanges(among: encoded, through: cut) == [
                drawn.id, undo.id,
            ]
        )
        #expect(DocumentTypes([BoardEdit.self]).inertChanges(among: encoded, through: cut).isEmpty)

        var newer = alice.change(.clear).encoded
        newer.payload.schemaVersion = BoardEdit.schemaVersion + 1
        #expect(
            DocumentTypes(documents: [BoardState.self]).inertChanges(
                among: encoded + [newer],
                through: vector(alice, 5)
            )
            .isEmpty
        )
    }

    private func vector(_ author: Author, _ seq: UInt64) -> VersionVector {
        VersionVector([author.replica: seq])
    }

    private func vector(_ first: Author, _ firstSeq: UInt64, _ second: Author, _ secondSeq: UInt64) -> VersionVector {
        VersionVector([first.replica: firstSeq, second.replica: secondSeq])
    }
}
