import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import Testing

/// Writes `Conformance/inert.json`: sets of changes and a cut → the changes inside the cut that stop
/// mattering. The page must find exactly these when it checks a snapshot that leaves changes out.
@Suite struct InertVectorTests {
    struct Case {
        let name: String
        let changes: [BoardChange]
        let cut: VersionVector
    }

    static func cases() -> [Case] {
        var cases: [Case] = []
        var alice = Author(1)
        var bob = Author(2)

        let drawn = alice.change(add(line(4)))
        let undo = alice.change(.undo(drawn.id))
        let settle = alice.change(.settle(through: 2, inactive: [1]))
        cases.append(
            Case(
                name: "an undone stroke, settled",
                changes: [settle, drawn, undo],
                cut: VersionVector([alice.replica: 3])
            )
        )
        cases.append(
            Case(
                name: "its settle outside the cut",
                changes: [drawn, undo, settle],
                cut: VersionVector([alice.replica: 2])
            )
        )

        let shared = alice.change(add(line(5, y: 10)))
        bob.saw(shared)
        let half = bob.change(.erase(stroke(of: shared), [interval(-1, 2.5)]))
        let rest = bob.change(.erase(stroke(of: shared), [interval(2, 5)]))
        let recolour = bob.change(.set(stroke(of: shared), .colour(.black)))
        let aliceSettles = alice.change(.settle(through: 4, inactive: [1]))
        let bobSettles = bob.change(.settle(through: 3, inactive: []))
        let erased = [shared, half, rest, recolour, aliceSettles, bobSettles]
        cases.append(
            Case(
                name: "erased away, every erase settled",
                changes: erased,
                cut: VersionVector([alice.replica: 5, bob.replica: 4])
            )
        )
        cases.append(
            Case(
                name: "an erase not settled keeps the stroke",
                changes: erased,
                cut: VersionVector([alice.replica: 5, bob.replica: 3])
            )
        )

        let deleted = alice.change(add(line(3, y: 20)))
        let delete = alice.change(.set(stroke(of: deleted), .deleted(true)))
        let cleared = alice.change(add(line(3, y: 25)))
        bob.saw(cleared)
        let clear = bob.change(.clear)
        let lateClear = bob.change(.clear)
        alice.saw(lateClear)
        let after = alice.change(add(line(3, y: 29)))
        let red = alice.change(.set(stroke(of: after), .colour(Colour(red: 255, green: 0, blue: 0))))
        let blue = alice.change(.set(stroke(of: after), .colour(Colour(red: 0, green: 0, blue: 255))))
        let settles = [
            alice.change(.settle(through: alice.seq, inactive: [1])),
            bob.change(.settle(through: bob.seq, inactive: [])),
        ]
        let lateUndo = alice.change(.undo(blue.id))
        cases.append(
            Case(
                name: "deleted, cleared, superseded, and an undo of a settled change",
                changes: [deleted, delete, cleared, clear, lateClear, after, red, blue, lateUndo] + settles,
                cut: VersionVector([alice.replica: alice.seq, bob.replica: bob.seq])
            )
        )

        // The same histories on a device that dropped the dead strokes' adds (or took a snapshot that left
        // them out): the erases and the deletion that ended them stay, for a device that holds the strokes.
        cases.append(
            Case(
                name: "erased away, the stroke dropped: the erases stay as proof",
                changes: Array(erased.dropFirst()),
                cut: VersionVector([alice.replica: 5, bob.replica: 4])
            )
        )
        cases.append(
            Case(
                name: "deleted, the stroke dropped: the deletion stays as proof",
                changes: [delete, cleared, clear, lateClear, after, red, blue, lateUndo] + settles,
                cut: VersionVector([alice.replica: alice.seq, bob.replica: bob.seq])
            )
        )

        // A device that no longer holds a stroke can still tell it died undone (its settle says so) or
        // cleared (a later change of its timeline comes before the clear): then the deletion and the erase
        // aimed at it go, as they do for a device that holds the stroke.
        var carol = Author(3)
        var dan = Author(4)
        let doomed = carol.change(add(line(3, y: 40)))
        let undoneLater = carol.change(add(line(3, y: 45)))
        let undoLater = carol.change(.undo(undoneLater.id))
        let deleteDoomed = carol.change(.set(stroke(of: doomed), .deleted(true)))
        let eraseUndone = carol.change(.erase(stroke(of: undoneLater), [interval(0, 1)]))
        dan.saw(eraseUndone)
        let wipe = dan.change(.clear)
        let proofs = [
            carol.change(.settle(through: carol.seq, inactive: [2])),
            dan.change(.settle(through: dan.seq, inactive: [])),
        ]
        let ended = [doomed, undoneLater, undoLater, deleteDoomed, eraseUndone, wipe] + proofs
        let endedCut = VersionVector([carol.replica: carol.seq, dan.replica: dan.seq])
        cases.append(Case(name: "cleared and undone strokes, deleted and erased", changes: ended, cut: endedCut))
        cases.append(
            Case(
                name: "cleared and undone strokes dropped: their deletion and erase go too",
                changes: [undoLater, deleteDoomed, eraseUndone, wipe] + proofs,
                cut: endedCut
            )
        )

        let unknown = alice.change(.unknown(kind: 99, bytes: [0x9A, 0x06, 0x00]))
        cases.append(
            Case(
                name: "an operation of a newer schema keeps everything",
                changes: [drawn, undo, settle, unknown],
                cut: VersionVector([alice.replica: 3])
            )
        )

        for seed: UInt64 in [3, 5, 8] {
            var generator = SplitMix64(seed: seed)
            var session = ReplicaSession(replicas: 3, using: &generator)
            session.run(steps: 150, using: &generator)
            let changes = session.changes.map { change in
                Change(
                    id: change.id,
                    stamp: change.stamp,
                    payload: BoardEdit(
                        board: change.payload.board,
                        operations: change.payload.operations.map(BoardVectorTests.rounded)
                    )
                )
            }
            cases.append(
                Case(
                    name: "random session \(seed)",
                    changes: changes.shuffled(using: &generator),
                    cut: session.randomCut(using: &generator)
                )
            )
        }
        return cases
    }

    @Test func inertVectorsAreCurrent() throws {
        var dropped = 0
        let cases = Self.cases().map { testCase -> [String: Any] in
            let board = BoardState.after(testCase.changes)
            let inert = board.inertChanges(among: testCase.changes, through: testCase.cut).sorted()
            dropped += inert.count
            return [
                "name": testCase.name,
                "changes": testCase.changes.map(VectorJSON.change),
                "cut": testCase.cut.entries.sorted { $0.key < $1.key }.map {
                    VectorJSON.id(ChangeID(replica: $0.key, seq: $0.value))
                },
                "inert": inert.map(VectorJSON.id),
            ]
        }
        #expect(dropped > 50, "the vectors exercise the rule")
        try ConformanceVectorFile(name: "inert.json").check([
            "format": "inkwell-inert-conformance/1",
            "about": "Each case applies `changes` to an empty board \"main\"; of them, exactly the changes in `inert` "
                + "(sorted by replica, then seq) stop mattering within `cut`, each timeline's prefix through "
                + "the seq given (docs/ARCHITECTURE.md, \"Settling\").",
            "cases": cases,
        ])
    }
}
