import InkwellSync
import Testing

@Suite struct ChangeLogTests {
    let a = Pool.replicas[0]
    let b = Pool.replicas[1]

    @Test func insertIsIdempotent() throws {
        var log = ChangeLog<String>()
        #expect(try log.insert(change(a, 1, at: 10, "x")) == .inserted)
        #expect(try log.insert(change(a, 1, at: 10, "x")) == .duplicate)
        #expect(log.count == 1)
        try log.checkInvariants()
    }

    @Test func aReusedIdWithAnotherStampIsRefusedAndChangesNothing() throws {
        var log = ChangeLog<String>()
        try log.insert(change(a, 1, at: 10))
        #expect(throws: ChangeLogError.conflictingDuplicate(ChangeID(replica: a, seq: 1))) {
            try log.insert(change(a, 1, at: 11))
        }
        #expect(log.count == 1)
        #expect(log[ChangeID(replica: a, seq: 1)]?.stamp == Stamp(wallMilliseconds: 10))
    }

    @Test func aStampThatGoesBackwardsAlongItsTimelineIsRefused() throws {
        var log = ChangeLog<String>()
        try log.insert(change(a, 1, at: 10))
        try log.insert(change(a, 5, at: 50))
        #expect(throws: ChangeLogError.stampNotMonotonic(ChangeID(replica: a, seq: 2))) {
            try log.insert(change(a, 2, at: 9))
        }
        #expect(throws: ChangeLogError.stampNotMonotonic(ChangeID(replica: a, seq: 3))) {
            try log.insert(change(a, 3, at: 60))
        }
        #expect(log.count == 2)
        try log.insert(change(a, 3, at: 30))
        try log.checkInvariants()
    }

    @Test func aChangeAtTheLastSeqReportsTheGapBeforeItAndNothingAfter() throws {
        var log = ChangeLog<String>()
        try log.insert(change(a, .max, at: 10))
        #expect(log.gaps(of: a) == [1...(UInt64.max - 1)])
        #expect(log.gaps == [TimelineRange(replica: a, seqs: 1...(UInt64.max - 1))])
        try log.insert(change(a, 1, at: 5))
        #expect(log.gaps(of: a) == [2...(UInt64.max - 1)])
        try log.checkInvariants()
    }

    @Test func aBaselineThroughTheLastSeqLeavesNoGapAndTakesNothingMore() throws {
        var cut = Cut()
        cut.include(ChangeID(replica: a, seq: .max), Stamp(wallMilliseconds: 10))
        var log = ChangeLog<String>(after: cut)
        #expect(log.gaps.isEmpty && log.gaps(of: a).isEmpty)
        #expect(try log.insert(change(a, .max, at: 20)) == .duplicate)
        #expect(log.frontier[a] == .max)
        #expect(log.changes(notIn: VersionVector()).isEmpty)
    }

    @Test func gapsAreDetectedPerTimelineAndCloseWhenFilled() throws {
        var log = ChangeLog<String>()
        for seq: UInt64 in [1, 2, 5, 6, 9] { try log.insert(change(a, seq, at: seq * 10)) }
        try log.insert(change(b, 2, at: 5))
        #expect(log.frontier == VersionVector([a: 2]))
        #expect(log.gaps(of: a) == [3...4, 7...8])
        #expect(
            log.gaps == [
                TimelineRange(replica: a, seqs: 3...4), TimelineRange(replica: a, seqs: 7...8),
                TimelineRange(replica: b, seqs: 1...1),
            ]
        )
        for seq: UInt64 in [4, 3, 7, 8] { try log.insert(change(a, seq, at: seq * 10)) }
        try log.insert(change(b, 1, at: 1))
        #expect(log.gaps.isEmpty)
        #expect(log.frontier == VersionVector([a: 9, b: 2]))
        try log.checkInvariants()
    }

    @Test func iteratesInTheStrictTotalOrder() throws {
        var log = ChangeLog<String>()
        // Same wall time on two replicas: the replica id breaks the tie.
        try log.insert(change(b, 1, at: 20, "b1"))
        try log.insert(change(a, 2, at: 30, "a2"))
        try log.insert(change(a, 1, at: 20, "a1"))
        try log.insert(change(b, 2, at: 25, "b2"))
        #expect(log.inOrder.map(\.payload) == ["a1", "b1", "b2", "a2"])
        #expect(log.latestStamp == Stamp(wallMilliseconds: 30))
    }

    @Test func changesNotInAVectorAreWhatThePeerLacksInTotalOrder() throws {
        var log = ChangeLog<String>()
        for seq: UInt64 in 1...4 { try log.insert(change(a, seq, at: seq * 10, "a\(seq)")) }
        try log.insert(change(a, 7, at: 70, "a7"))
        for seq: UInt64 in 1...2 { try log.insert(change(b, seq, at: seq * 10 + 5, "b\(seq)")) }
        let peer = VersionVector([a: 2])
        #expect(log.changes(notIn: peer).map(\.payload) == ["b1", "b2", "a3", "a4", "a7"])
        #expect(log.changes(notIn: VersionVector([a: 9, b: 2])).isEmpty)
        #expect(log.changes(notIn: log.frontier).map(\.payload) == ["a7"], "past a gap the peer may lack it too")
    }

    @Test func batchInsertMatchesOneByOneInsert() throws {
        var generator = SplitMix64(seed: 11)
        let changes = randomHistory(replicas: 4, perReplica: 50, using: &generator)
        var single = ChangeLog<String>()
        for change in changes { try single.insert(change) }
        var batched = ChangeLog<String>()
        let halves = changes.shuffled(using: &generator)
        batched.insert(contentsOf: halves[..<80])
        let outcome = batched.insert(contentsOf: halves + halves[..<10])
        #expect(outcome.inserted == 120)
        #expect(outcome.duplicates == 90)
        #expect(outcome.refused.isEmpty)
        #expect(batched.inOrder.map(\.id) == single.inOrder.map(\.id))
        try batched.checkInvariants()
    }

    @Test func batchInsertReportsRefusedChangesAndKeepsTheRest() throws {
        var log = ChangeLog<String>()
        let outcome = log.insert(contentsOf: [change(a, 1, at: 10), change(a, 2, at: 5), change(b, 1, at: 1)])
        #expect(outcome.inserted == 2)
        #expect(outcome.refused == [.stampNotMonotonic(ChangeID(replica: a, seq: 2))])
        try log.checkInvariants()
    }

    /// Random inserts, in random order with duplicates, against a plain reference: a dictionary and a sort.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func agreesWithAReferenceModel(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let history = randomHistory(replicas: 5, perReplica: 80, using: &generator)
        var log = ChangeLog<String>()
        var reference: [ChangeID: Change<String>] = [:]
        for (step, change) in (history + history.prefix(100)).shuffled(using: &generator).enumerated() {
            try log.insert(change)
            reference[change.id] = change
            if step % 50 == 0 { try log.checkInvariants() }
        }
        let expected = reference.values.sorted { $0.position < $1.position }.map(\.id)
        #expect(log.inOrder.map(\.id) == expected, "seed \(seed)")
        #expect(log.frontier.changeCount == UInt64(history.count))
        try log.checkInvariants()
    }
}

/// Timelines with stamps that rise along each timeline but interleave across replicas.
func randomHistory(
    replicas: Int,
    perReplica: Int,
    using generator: inout some RandomNumberGenerator
) -> [Change<String>] {
    Pool.replicas.prefix(replicas).flatMap { replica in
        var wall: UInt64 = 1_000
        return (1...UInt64(perReplica)).map { seq in
            wall += UInt64.random(in: 1...3, using: &generator)
            return Change(
                id: ChangeID(replica: replica, seq: seq),
                stamp: Stamp(wallMilliseconds: wall),
                payload: "\(replica.shortDescription):\(seq)"
            )
        }
    }
}
