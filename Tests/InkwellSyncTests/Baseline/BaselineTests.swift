import InkwellSync
import Testing

@Suite struct BaselineTests {
    let a = Pool.replicas[0]
    let b = Pool.replicas[1]
    let c = Pool.replicas[2]

    /// DESIGN §4's worked example: frontiers A:23, B:17, C:27 stamped 1204, 1106, 3207.
    @Test func stableCutoffIsTheLeastFrontierStamp() throws {
        let cut = Cut([
            a: (seq: 23, stamp: Stamp(wallMilliseconds: 1204)),
            b: (seq: 17, stamp: Stamp(wallMilliseconds: 1106)),
            c: (seq: 27, stamp: Stamp(wallMilliseconds: 3207)),
        ])
        #expect(cut.stableCutoff == Stamp(wallMilliseconds: 1106))

        // The same frontiers reached through a change log.
        var log = ChangeLog<String>()
        for (replica, last, lastStamp) in [(a, 23, 1204), (b, 17, 1106), (c, 27, 3207)] as [(ReplicaID, UInt64, UInt64)]
        {
            for seq in 1...last { try log.insert(change(replica, seq, at: lastStamp - (last - seq))) }
        }
        #expect(log.frontier == VersionVector([a: 23, b: 17, c: 27]))
        #expect(log.stableCutoff == Stamp(wallMilliseconds: 1106))
    }

    /// DESIGN §4: a baseline at A:20 with A:21–23 and A:25–29 present gives A's frontier 23.
    @Test func frontierCountsTheBaselineAndStopsAtTheFirstGap() throws {
        let baseline = Cut([a: (seq: 20, stamp: Stamp(wallMilliseconds: 200))])
        var log = ChangeLog<String>(after: baseline)
        for seq: UInt64 in [21, 22, 23, 25, 26, 27, 28, 29] { try log.insert(change(a, seq, at: seq * 10)) }
        #expect(log.frontier[a] == 23)
        #expect(log.gaps(of: a) == [24...24])
        #expect(log.count == 8)
        #expect(try log.insert(change(a, 12, at: 120)) == .duplicate, "inside the baseline: already here")
        #expect(log.contains(ChangeID(replica: a, seq: 12)))
        #expect(log.stableCutoff == Stamp(wallMilliseconds: 230))
        try log.checkInvariants()
    }

    @Test func noCutoffWhileATimelineLacksItsFirstChange() throws {
        var log = ChangeLog<String>()
        try log.insert(change(a, 1, at: 10))
        try log.insert(change(b, 2, at: 5))
        #expect(log.stableCutoff == nil)
        #expect(throws: ChangeLogError.cutoffNotStable) { try log.compact(through: Stamp(wallMilliseconds: 1)) }
    }

    @Test func theBaselineThatCoversTheOtherWins() {
        var older = Baseline(empty: GSet<String>())
        older.absorb([change(a, 1, at: 10, "x")]) { $0.insert($1.payload) }
        var newer = older
        newer.absorb([change(a, 2, at: 20, "y"), change(b, 1, at: 15, "z")]) { $0.insert($1.payload) }
        #expect(older.merged(with: newer) == newer)
        #expect(newer.merged(with: older) == newer)
    }

    @Test func concurrentBaselinesAreUnioned() {
        let start = Baseline(empty: GSet<String>())
        var left = start
        left.absorb([change(a, 1, at: 10, "x")]) { $0.insert($1.payload) }
        var right = start
        right.absorb([change(b, 1, at: 12, "y")]) { $0.insert($1.payload) }
        let union = left.merged(with: right)
        #expect(union.cut.vector == VersionVector([a: 1, b: 1]))
        #expect(union.state == GSet(["x", "y"]))
        #expect(union.cutoff == Stamp(wallMilliseconds: 10))
    }

    /// Compacting into a baseline and reopening from it gives the same state as replaying everything.
    @Test func coldOpenFromBaselinePlusTailEqualsFullReplay() throws {
        var generator = SplitMix64(seed: 7)
        let history = randomHistory(replicas: 3, perReplica: 40, using: &generator)
        var log = ChangeLog<String>()
        log.insert(contentsOf: history.shuffled(using: &generator))
        let apply: (inout [String], Change<String>) -> Void = { $0.append($1.payload) }
        let fullReplay = log.inOrder.reduce(into: [String]()) { apply(&$0, $1) }

        let cutoff = try #require(log.stableCutoff)
        let middle = Stamp(rawValue: cutoff.rawValue / 2 + log.inOrder.first!.stamp.rawValue / 2)
        var baseline = Baseline(empty: [String]())
        let compacted = try log.compact(through: middle)
        #expect(!compacted.isEmpty)
        #expect(compacted.allSatisfy { $0.stamp <= middle })
        baseline.absorb(compacted, apply: apply)
        #expect(log.baselineCut == baseline.cut)
        #expect(log.count + compacted.count == history.count)
        try log.checkInvariants()

        // Cold open: the baseline's state, then the changes after it.
        var reopened = ChangeLog<String>(after: baseline.cut)
        reopened.insert(contentsOf: history)
        #expect(reopened.count == log.count)
        let coldOpen = reopened.inOrder.reduce(into: baseline.state) { apply(&$0, $1) }
        #expect(coldOpen == fullReplay)
        #expect(reopened.frontier == log.frontier)
    }
}
