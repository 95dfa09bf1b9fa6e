import InkwellSync
import Testing

@Suite struct HybridLogicalClockTests {
    static let year: UInt64 = 365 * 86_400_000
    static let now: UInt64 = 1_800_000_000_000

    @Test func stampsFollowWallTimeWhenItMovesForward() {
        var clock = HybridLogicalClock()
        #expect(clock.next(wallMilliseconds: 1_000) == Stamp(wallMilliseconds: 1_000))
        #expect(clock.next(wallMilliseconds: 1_000) == Stamp(wallMilliseconds: 1_000, counter: 1))
        #expect(clock.next(wallMilliseconds: 1_007) == Stamp(wallMilliseconds: 1_007))
    }

    @Test func stampsStayMonotonicWhenTheWallClockJumpsBackwards() {
        var clock = HybridLogicalClock()
        let walls: [UInt64] = [5_000, 5_001, 4_000, 4_000, 100, 5_001, 5_002, 3, 6_000]
        let stamps = walls.map { clock.next(wallMilliseconds: $0) }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        #expect(stamps[2] == Stamp(wallMilliseconds: 5_001, counter: 1), "holds the last wall time, counts on")
        #expect(stamps.last == Stamp(wallMilliseconds: 6_000), "rejoins wall time once it passes")
    }

    @Test func aWriteMadeAfterSeeingASkewedOneStillWins() {
        // A's clock is four minutes ahead (inside the lead), B's a year behind; B sees A's write, then writes.
        let lead: UInt64 = 4 * 60_000
        var ahead = HybridLogicalClock()
        var behind = HybridLogicalClock()
        let replicaA = ReplicaID(high: 0xA, low: 0)
        let replicaB = ReplicaID(high: 0xB, low: 0)
        let stampA = ahead.next(wallMilliseconds: Self.now + lead)
        let writeA = LWWRegister("A", at: OpStamp(stamp: stampA, change: ChangeID(replica: replicaA, seq: 1)))

        let skew = behind.witness(stampA, wallMilliseconds: Self.now)
        #expect(skew?.aheadMilliseconds == lead, "the skew is reported for logging")
        #expect(skew?.adopted == true)
        #expect(behind.diagnostics.skewedWitnesses == 1)
        let stampB = behind.next(wallMilliseconds: Self.now)
        let writeB = LWWRegister("B", at: OpStamp(stamp: stampB, change: ChangeID(replica: replicaB, seq: 1)))

        #expect(stampB > stampA)
        #expect(writeA.merged(with: writeB).value == "B")
        #expect(writeB.merged(with: writeA).value == "B")
        // And back: A answers B's write, and its answer wins in turn.
        ahead.witness(stampB, wallMilliseconds: Self.now + lead)
        #expect(ahead.next(wallMilliseconds: Self.now + lead) > stampB)
    }

    /// A stamp further ahead than the lead is not adopted: the change carrying it waits aside until time
    /// catches up, so it cannot drag this clock, and every later write, years ahead.
    @Test func aStampBeyondTheLeadIsNotAdopted() {
        var clock = HybridLogicalClock()
        let lead = HybridLogicalClock.maximumLeadMilliseconds
        let skew = clock.witness(Stamp(wallMilliseconds: Self.now + lead + 1), wallMilliseconds: Self.now)
        #expect(skew?.adopted == false)
        #expect(clock.diagnostics.refusedWitnesses == 1)
        #expect(clock.next(wallMilliseconds: Self.now) == Stamp(wallMilliseconds: Self.now))
        #expect(clock.witness(Stamp(wallMilliseconds: Self.now + lead), wallMilliseconds: Self.now)?.adopted == true)
        #expect(clock.next(wallMilliseconds: Self.now) == Stamp(wallMilliseconds: Self.now + lead, counter: 1))
    }

    /// No stamp makes the clock trap: not the greatest stamp there is, witnessed or reached.
    @Test func theEndOfTimeNeitherTrapsNorWinds() {
        var clock = HybridLogicalClock()
        clock.witness(Stamp(rawValue: .max), wallMilliseconds: Self.now)
        #expect(clock.next(wallMilliseconds: Self.now) == Stamp(wallMilliseconds: Self.now))
        var last = HybridLogicalClock(latest: Stamp(rawValue: .max - 1))
        #expect(last.next(wallMilliseconds: Self.now) == Stamp(rawValue: .max))
        #expect(last.next(wallMilliseconds: .max) == Stamp(rawValue: .max), "the last stamp repeats rather than wraps")
        #expect(last.diagnostics.exhaustedStamps == 1)
    }

    @Test func ordinaryDriftIsNotReportedAsSkew() {
        var clock = HybridLogicalClock()
        #expect(clock.witness(Stamp(wallMilliseconds: Self.now + 2_000), wallMilliseconds: Self.now) == nil)
        #expect(clock.witness(Stamp(wallMilliseconds: Self.now - Self.year), wallMilliseconds: Self.now) == nil)
        #expect(clock.diagnostics.skewedWitnesses == 0)
        #expect(clock.next(wallMilliseconds: Self.now) == Stamp(wallMilliseconds: Self.now + 2_000, counter: 1))
    }

    @Test func counterExhaustionBorrowsTheNextMillisecondWithoutLosingOrder() {
        var clock = HybridLogicalClock()
        var previous = clock.next(wallMilliseconds: Self.now)
        for _ in 0..<200_000 {
            let stamp = clock.next(wallMilliseconds: Self.now)
            #expect(stamp > previous)
            previous = stamp
        }
        // 200,001 stamps in one frozen millisecond: the counter ran out three times.
        #expect(clock.diagnostics.counterOverflows == 3)
        #expect(previous.wallMilliseconds == Self.now + 3)
        #expect(clock.diagnostics.stampsAheadOfWall > 0)
        // When wall time passes the borrowed milliseconds the clock is back on it.
        #expect(clock.next(wallMilliseconds: Self.now + 10) == Stamp(wallMilliseconds: Self.now + 10))
    }

    @Test func witnessingAStampAtTheCounterLimitStillLeavesRoomToCount() {
        var clock = HybridLogicalClock()
        let full = Stamp(wallMilliseconds: Self.now, counter: .max)
        clock.witness(full, wallMilliseconds: Self.now)
        let next = clock.next(wallMilliseconds: Self.now)
        #expect(next > full)
        #expect(next == Stamp(wallMilliseconds: Self.now + 1))
        #expect(clock.diagnostics.counterOverflows == 1)
    }

    @Test func aClockResumedFromStorageNeverReissuesAStamp() {
        let stored = Stamp(wallMilliseconds: Self.now, counter: 7)
        var clock = HybridLogicalClock(latest: stored)
        #expect(clock.next(wallMilliseconds: Self.now - 60_000) > stored)
    }

    @Test func stampLayoutIs48BitsOfMillisecondsAnd16OfCounter() {
        let stamp = Stamp(wallMilliseconds: Stamp.maxWallMilliseconds, counter: 0xBEEF)
        #expect(stamp.rawValue == 0xFFFF_FFFF_FFFF_BEEF)
        #expect(stamp.wallMilliseconds == Stamp.maxWallMilliseconds)
        #expect(stamp.counter == 0xBEEF)
        #expect(Stamp(wallMilliseconds: 1) > Stamp(wallMilliseconds: 0, counter: .max))
    }

    @Test func systemWallClockReadsMillisecondsSince1970() {
        let millis = SystemWallClock().millisecondsSince1970()
        #expect(millis > 1_700_000_000_000)
        #expect(millis < Stamp.maxWallMilliseconds)
    }
}
