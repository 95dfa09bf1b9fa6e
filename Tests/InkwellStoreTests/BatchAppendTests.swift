import InkwellStore
import InkwellSync
import Testing

/// Appending in batches checks stamps and moves frontiers per run of a timeline; these tests hold
/// it to the rule change by change: a batch is stored whole exactly when every timeline's stamps
/// still increase with its seqs, and each room's frontier is the longest gapless prefix of each
/// timeline.
@Suite struct BatchAppendTests {
    /// The rule, kept in memory: per room and replica, the stamps stored by seq.
    struct Model {
        var timelines: [String: [ReplicaID: [UInt64: Stamp]]] = [:]

        /// Adds the batch if it keeps every timeline increasing; returns whether it did.
        mutating func append(_ batch: [StoredChange]) -> Bool {
            var next = self
            for change in batch {
                let stored = next.timelines[change.room, default: [:]][change.id.replica, default: [:]][change.id.seq]
                if let stored, stored != change.stamp { return false }
                next.timelines[change.room, default: [:]][change.id.replica, default: [:]][change.id.seq] = change.stamp
            }
            for rooms in next.timelines.values {
                for timeline in rooms.values {
                    let stamps = timeline.sorted { $0.key < $1.key }.map(\.value)
                    if zip(stamps, stamps.dropFirst()).contains(where: { $0 >= $1 }) { return false }
                }
            }
            self = next
            return true
        }

        func frontier(room: String) -> VersionVector {
            var entries: [ReplicaID: UInt64] = [:]
            for (replica, timeline) in timelines[room] ?? [:] {
                var seq: UInt64 = 0
                while timeline[seq + 1] != nil { seq += 1 }
                if seq > 0 { entries[replica] = seq }
            }
            return VersionVector(entries)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func batchesAreStoredExactlyWhenTheRuleChangeByChangeAllowsThem(kind: StoreKind) throws {
        let seed = testSeed("batchesAreStoredExactlyWhenTheRuleChangeByChangeAllowsThem")
        var random = SplitMix64(seed: seed)
        for round in 0..<40 {
            let opened = try kind.open()
            let store = opened.store
            var model = Model()
            // Three timelines in two rooms; stamps mostly rise with seq, sometimes not, sometimes a
            // change comes again.
            var pool: [StoredChange] = []
            for (replica, room) in [(a, "x"), (b, "x"), (c, "y")] {
                for seq in 1...UInt64(random.next(upperBound: UInt64(30)) + 1) {
                    let skewed = random.next(upperBound: UInt64(12)) == 0
                    let wall = 1_000 + seq * 10 + (skewed ? random.next(upperBound: UInt64(40)) : 0)
                    pool.append(change(replica, seq, at: wall, room: room))
                }
            }
            pool.shuffle(using: &random)
            pool += pool.prefix(Int(random.next(upperBound: UInt64(5))))
            var start = 0
            while start < pool.count {
                let end = min(pool.count, start + 1 + Int(random.next(upperBound: UInt64(20))))
                let batch = Array(pool[start..<end])
                let allowed = model.append(batch)
                let stored = (try? store.append(batch)) != nil
                #expect(stored == allowed, "seed \(seed), round \(round), batch at \(start)")
                start = end
            }
            for room in ["x", "y"] {
                #expect(
                    try store.frontier(room: room).vector == model.frontier(room: room),
                    "seed \(seed), round \(round)"
                )
            }
            try store.checkInvariants()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func ofTwoNewChangesOutOfOrderTheLaterInTheBatchIsNamed(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let early = change(a, 2, at: 500)
        let late = change(a, 1, at: 600)
        #expect(throws: StoreError.stampNotMonotonic(late.id)) { try store.append([early, late]) }
        #expect(throws: StoreError.stampNotMonotonic(early.id)) { try store.append([late, early]) }
        #expect(try store.frontier(room: "room").vector.isEmpty)
    }
}
