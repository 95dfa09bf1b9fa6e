import InkwellSync
import InkwellTesting
import Testing

@testable import InkwellBoard

@Suite struct AppliedChangesTests {
    /// Seqs in order, in runs that jump ahead, backwards, far away and at the ends of `UInt64`, from a
    /// few replicas, held to a table keyed by change id. Seeded; `INKWELL_SEED` replays it.
    @Test func answersAsATableOfChangeIDsWhateverTheOrder() {
        let seed = SeededGenerator.seedFromEnvironment()
        print("applied changes: seed \(seed) (INKWELL_SEED=\(seed) replays)")
        var random = SeededGenerator(seed: seed)
        let replicas = (0..<3).map { _ in ReplicaID(using: &random) }
        for round in 0..<200 {
            var applied = AppliedChanges()
            var reference: [ChangeID: Effects] = [:]
            var seq: [ReplicaID: UInt64] = [:]
            for step in 0..<Int.random(in: 1...300, using: &random) {
                let replica = replicas.randomElement(using: &random)!
                let previous = seq[replica] ?? UInt64.random(in: 1...1_000, using: &random)
                let next: UInt64 =
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0: previous &+ UInt64.random(in: 2...200, using: &random)
                    case 1: max(1, previous &- UInt64.random(in: 1...300, using: &random))
                    case 2: UInt64.random(in: 1...UInt64.max, using: &random)
                    case 3: [1, UInt64.max, UInt64.max - 1].randomElement(using: &random)!
                    default: previous &+ 1
                    }
                let seqValue = max(1, next)
                seq[replica] = seqValue
                let id = ChangeID(replica: replica, seq: seqValue)
                let effects: Effects = step.isMultiple(of: 3) ? .none : .one(.clear)
                #expect(applied[id] == reference[id], "seed \(seed), round \(round), step \(step), before")
                if reference[id] == nil {
                    applied.insert(effects, for: id)
                    reference[id] = effects
                }
                // Every change seen so far, not only this one: a seq can become covered by a run later.
                let probe = reference.keys.randomElement(using: &random)!
                #expect(applied[probe] == reference[probe], "seed \(seed), round \(round), step \(step), probe")
            }
            #expect(applied.count == reference.count)
            #expect(applied.ids.sorted() == reference.keys.sorted(), "seed \(seed), round \(round)")
            for (id, effects) in reference { #expect(applied[id] == effects, "seed \(seed), round \(round)") }
            for replica in replicas {
                let absent = ChangeID(replica: replica, seq: UInt64.random(in: 1...UInt64.max, using: &random))
                if reference[absent] == nil { #expect(applied[absent] == nil) }
            }
        }
    }

    /// A seq that went to the strays and that the run later grows over is still found (it once read as
    /// not applied, so a repeat applied twice).
    @Test func aStrayTheRunGrowsOverIsStillFound() {
        let replica = ReplicaID(high: 1, low: 2)
        var applied = AppliedChanges()
        applied.insert(.none, for: ChangeID(replica: replica, seq: 1))
        applied.insert(.one(.clear), for: ChangeID(replica: replica, seq: 100))
        for seq in 2...99 as ClosedRange<UInt64> { applied.insert(.none, for: ChangeID(replica: replica, seq: seq)) }
        applied.insert(.none, for: ChangeID(replica: replica, seq: 101))
        #expect(applied[ChangeID(replica: replica, seq: 100)] == .one(.clear))
        #expect(applied.count == 101)
    }
}
