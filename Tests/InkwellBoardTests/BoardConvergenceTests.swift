import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import Testing

@Suite struct BoardConvergenceTests {
    /// Every board operation over a lossy, duplicating, partitioned network with skewed clocks.
    /// `INKWELL_CONVERGENCE_SCALE` scales it; `INKWELL_SEED` reproduces a failure.
    @Test func boardsConvergeByteIdentical() throws {
        let configuration = ConvergenceHarness<BoardModel>.Configuration.fromEnvironment(
            replicas: 6,
            operationsPerReplica: 1_500
        )
        print(
            "board convergence: \(configuration.replicas) replicas × \(configuration.operationsPerReplica) changes, INKWELL_SEED=\(configuration.seed)"
        )
        let report = try ConvergenceHarness<BoardModel>.run(configuration)
        print("board convergence: \(report)")
        #expect(report.changes == configuration.replicas * configuration.operationsPerReplica)
        #expect(report.faultsMissing.isEmpty, "faults that never happened: \(report.faultsMissing)")
    }

    /// Erase before add, an erase undone while another replica erases more, concurrent clears and an
    /// append before its stroke: every delivery order, each change also repeated, gives one board.
    @Test func everyOrderOfTheTrickyCasesAgrees() throws {
        var alice = Author(1)
        var bob = Author(2)
        let drawn = alice.change(add(line(9)))
        let id = stroke(of: drawn)
        bob.saw(drawn)
        let appended = alice.change(.appendPoints(id, points: [Point(90, 0)], pressures: nil))
        let aliceErase = alice.change(.erase(id, [interval(1, 3)]))
        let bobErase = bob.change(.erase(id, [interval(2, 5)]))
        let undo = alice.change(.undo(aliceErase.id))
        let bobClear = bob.change(.clear)
        let changes = [drawn, appended, aliceErase, bobErase, undo, bobClear]
        let states = AllOrders.distinctStates(of: BoardModel.self, applying: changes)
        #expect(states.count == 1)
        let board = BoardState.after(changes)
        try board.checkInvariants()
        #expect(board.visibleStrokeCount == 0, "bob's clear came after the stroke")
        let withoutClear = BoardState.after(Array(changes.dropLast()))
        #expect(withoutClear.pieces(id) == [interval(0, 2), interval(5, 9)])
    }

    @Test func invariantsHoldThroughARandomSession() throws {
        var generator = SplitMix64(seed: 99)
        var model = BoardModel()
        var authors = [Author(1), Author(2), Author(3)]
        var mostVisible = 0
        for step in 0..<600 {
            let index = step % 3
            let position = OpStamp(
                stamp: .zero,
                change: ChangeID(replica: authors[index].replica, seq: authors[index].seq + 1)
            )
            let edit = model.randomOperation(at: position, using: &generator)
            model.apply(authors[index].change(edit.operations))
            if step % 50 == 0 { try model.board.checkInvariants() }
            mostVisible = max(mostVisible, model.board.visibleStrokeCount)
        }
        try model.board.checkInvariants()
        #expect(mostVisible > 10, "the session drew, whatever its clears took away")
    }
}
