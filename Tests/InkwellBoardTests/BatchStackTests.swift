import InkwellBoard
import InkwellSync
import InkwellTesting
import Testing

/// A large batch rebuilds the stack once at its end instead of moving its entries one by one: the board it
/// makes is the one the same changes make one at a time, in any order, and its stack holds its invariants.
@Suite struct BatchStackTests {
    @Test func aLargeBatchMakesTheBoardThatChangesOneByOneMake() throws {
        let base = SeededGenerator.seedFromEnvironment()
        print("batch stack: INKWELL_SEED=\(base)")
        for round in 0..<4 {
            var generator = SplitMix64(seed: base &+ UInt64(round))
            var session = ReplicaSession(replicas: 3, using: &generator)
            session.run(steps: 1_500, using: &generator)
            let changes = session.changes.shuffled(using: &generator)
            #expect(changes.count >= 1_024, "the batch is large enough to rebuild the stack")

            var oneByOne = BoardState(board: "main")
            for change in changes { oneByOne.apply(change) }
            var batched = BoardState(board: "main")
            batched.apply(contentsOf: changes)
            try batched.checkInvariants()
            #expect(batched.canonicalHash == oneByOne.canonicalHash, "seed \(base &+ UInt64(round))")
            #expect(batched.visibleStrokeCount == oneByOne.visibleStrokeCount)

            // A large second batch into a board that holds changes, then a small one.
            let half = changes.count / 2
            var twice = BoardState(board: "main")
            twice.apply(contentsOf: Array(changes[..<half]))
            twice.apply(contentsOf: Array(changes[half...]))
            try twice.checkInvariants()
            #expect(twice.canonicalHash == oneByOne.canonicalHash)
        }
    }
}
