import InkwellSync
import Testing

/// What each type means, beyond the merge laws.
@Suite struct CRDTBehaviourTests {
    let a = Pool.replicas[0]
    let b = Pool.replicas[1]

    @Test func maxKeepsTheGreatestValue() {
        var value = Max(3)
        value.raise(to: 1)
        #expect(value.value == 3)
        value.merge(Max(9))
        #expect(value.value == 9)
    }

    @Test func gCounterCountsEachReplicaOnce() {
        var left = GCounter()
        left.increment(a, by: 2)
        var right = left
        right.increment(b, by: 5)
        left.increment(a)
        left.merge(right)
        left.merge(right)
        #expect(left.value == 8)
        #expect(left.counts == [a: 3, b: 5])
    }

    @Test func gCounterMergedWithHugeRemoteCountsStopsAtTheLargestValue() {
        var left = GCounter()
        left.increment(a, by: .max)
        var right = GCounter()
        right.increment(b, by: 2)
        left.merge(right)
        #expect(left.value == .max)
        #expect(left.counts == [a: .max, b: 2], "the counts themselves are kept exactly")
        #expect(throws: InvariantViolation.self) { try left.checkInvariants() }
    }

    @Test func pnCounterGoesBelowZero() {
        var counter = PNCounter()
        counter.increment(a, by: 2)
        counter.decrement(b, by: 5)
        #expect(counter.value == -3)
    }

    @Test func lwwRegisterKeepsTheLaterWriteWhateverTheOrder() {
        let early = LWWRegister("early", at: Pool.opStamp(1))
        let late = LWWRegister("late", at: Pool.opStamp(30))
        #expect(early.merged(with: late).value == "late")
        #expect(late.merged(with: early).value == "late")
        var register = late
        let tookEffect = register.set("stale", at: Pool.opStamp(2))
        #expect(!tookEffect)
        #expect(register.value == "late")
    }

    @Test func sameWallTimeIsDecidedByReplicaThenSeqThenIndex() {
        let stamp = Stamp(wallMilliseconds: 5)
        let low = OpStamp(stamp: stamp, change: ChangeID(replica: a, seq: 9))
        let high = OpStamp(stamp: stamp, change: ChangeID(replica: b, seq: 1))
        #expect(a < b)
        #expect(low < high)
        #expect(OpStamp(stamp: stamp, change: ChangeID(replica: a, seq: 9), index: 1) > low)
    }

    @Test func twoPhaseSetRemovalIsFinal() {
        var set = TwoPhaseSet<String>()
        set.insert("x")
        set.remove("x")
        let reinserted = set.insert("x")
        #expect(!reinserted)
        #expect(!set.contains("x"))
        var early = TwoPhaseSet<String>()
        early.remove("y")
        var late = TwoPhaseSet<String>()
        late.insert("y")
        #expect(!early.merged(with: late).contains("y"), "a remove that arrives before its add still wins")
    }

    @Test func orSetConcurrentAddWinsOverRemove() throws {
        var left = ORSet<String>()
        left.insert("x", tag: Pool.opStamp(1))
        var right = left
        let cancelled = left.remove("x")
        right.insert("x", tag: Pool.opStamp(2))
        #expect(cancelled == [Pool.opStamp(1)])
        let merged = left.merged(with: right)
        #expect(merged.contains("x"))
        #expect(merged.tags["x"] == [Pool.opStamp(2)])
        try merged.checkInvariants()
    }

    @Test func orSetRemoveBeforeAddCancelsTheAdd() {
        var set = ORSet<String>()
        set.remove(tags: [Pool.opStamp(4)])
        set.insert("x", tag: Pool.opStamp(4))
        #expect(!set.contains("x"))
        #expect(set.count == 0)
    }

    @Test func lwwMapRemovalIsATombstoneThatOlderWritesCannotUndo() {
        var map = LWWMap<AtomKey<String, String>, String>()
        let colour = AtomKey("stroke-1", "colour")
        map.set(colour, to: "red", at: Pool.opStamp(3))
        map.removeValue(forKey: colour, at: Pool.opStamp(10))
        let staleWrite = map.set(colour, to: "blue", at: Pool.opStamp(5))
        #expect(!staleWrite)
        #expect(map[colour] == nil)
        #expect(map.count == 0)
        map.set(colour, to: "green", at: Pool.opStamp(20))
        #expect(map[colour] == "green")
        #expect(Array(map.entries.map(\.value)) == ["green"])
    }

    @Test func nestedMapsMergePointwise() {
        var left: [String: [String: GCounter]] = [:]
        left["board", default: [:]]["strokes", default: GCounter()].increment(a, by: 2)
        var right: [String: [String: GCounter]] = [:]
        right["board", default: [:]]["strokes", default: GCounter()].increment(b, by: 3)
        right["board", default: [:]]["erases", default: GCounter()].increment(b)
        left.merge(right)
        #expect(left["board"]?["strokes"]?.value == 5)
        #expect(left["board"]?["erases"]?.value == 1)
    }
}
