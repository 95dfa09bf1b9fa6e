/// Issues ``Stamp``s that respect causality whatever the wall clocks say, and stay close to wall time.
///
/// Lamport's rule: every stamp issued is greater than every stamp this replica has issued or
/// witnessed, so if change A was seen before B was made, `A.stamp < B.stamp`, even when A came from
/// a clock a year ahead. The wall time is passed in rather than read, so the clock is a pure state
/// machine and tests control time exactly; ``WallClock`` supplies it in production.
///
/// Nothing here overflows silently or traps: when the 16-bit counter is exhausted within one millisecond
/// the clock borrows the next millisecond (counted in ``Diagnostics/counterOverflows``), and a witnessed
/// stamp far ahead of local wall time is reported to the caller as a ``Skew`` for logging. A stamp more
/// than ``maximumLeadMilliseconds`` ahead is not adopted at all: such a change is not applied until
/// time catches up with it (a server refuses it, a receiver keeps it aside), so Lamport's rule holds for
/// every change applied, and no stamp near the end of time can freeze a clock.
public struct HybridLogicalClock: Sendable {
    /// How far ahead of a receiver's clock a change's stamp may be and still be taken: five minutes,
    /// room for ordinary clock error, too little for a stamp to win every later write.
    public static let maximumLeadMilliseconds: UInt64 = 5 * 60_000

    public struct Configuration: Sendable {
        /// A witnessed stamp further ahead of local wall time than this is reported as skew.
        public var maximumForwardSkewMilliseconds: UInt64

        public init(maximumForwardSkewMilliseconds: UInt64 = 60_000) {
            self.maximumForwardSkewMilliseconds = maximumForwardSkewMilliseconds
        }
    }

    /// What a clock has had to do beyond the ordinary, for metrics and logs.
    public struct Diagnostics: Hashable, Sendable {
        /// Times the counter ran out within one millisecond and the next millisecond was borrowed.
        public var counterOverflows: UInt64 = 0
        /// Witnessed stamps that were further ahead of local wall time than the configured maximum.
        public var skewedWitnesses: UInt64 = 0
        /// The largest such lead seen, in milliseconds.
        public var largestSkewMilliseconds: UInt64 = 0
        /// Stamps issued while the clock ran ahead of wall time (because of a witnessed stamp or overflow).
        public var stampsAheadOfWall: UInt64 = 0
        /// Witnessed stamps too far ahead to adopt.
        public var refusedWitnesses: UInt64 = 0
        /// Stamps issued at the very last stamp, which cannot grow (only at the end of year 10889).
        public var exhaustedStamps: UInt64 = 0
    }

    /// A witnessed stamp that was far ahead of this replica's wall clock.
    public struct Skew: Hashable, Sendable {
        public let witnessed: Stamp
        public let localWallMilliseconds: UInt64
        /// Whether the clock moved to it: false beyond ``HybridLogicalClock/maximumLeadMilliseconds``.
        public var adopted = true
        public var aheadMilliseconds: UInt64 { witnessed.wallMilliseconds - localWallMilliseconds }
    }

    /// The greatest stamp issued or witnessed; the next stamp is greater than it.
    public private(set) var latest: Stamp
    public private(set) var diagnostics = Diagnostics()
    public let configuration: Configuration

    /// Resumes a clock from the greatest stamp a store holds (``Stamp/zero`` for a new one).
    public init(latest: Stamp = .zero, configuration: Configuration = .init()) {
        self.latest = latest
        self.configuration = configuration
    }

    /// Issues the stamp of a local event happening at wall time `now`.
    ///
    /// - Complexity: O(1).
    public mutating func next(wallMilliseconds now: UInt64) -> Stamp {
        let wall = min(now, Stamp.maxWallMilliseconds)
        if wall > latest.wallMilliseconds {
            latest = Stamp(wallMilliseconds: wall)
            return latest
        }
        guard latest.rawValue < UInt64.max else {
            // Unreachable from received stamps (never adopted this far ahead); the order stays total by
            // (stamp, replica, seq), so repeating the last stamp is safe where growing is impossible.
            diagnostics.exhaustedStamps += 1
            return latest
        }
        if latest.counter == Stamp.maxCounter { diagnostics.counterOverflows += 1 }
        // One more than the latest: the counter, or on overflow the next millisecond with counter 0.
        latest = Stamp(rawValue: latest.rawValue + 1)
        if latest.wallMilliseconds > wall { diagnostics.stampsAheadOfWall += 1 }
        return latest
    }

    /// Takes note of a stamp made elsewhere, so that every later local stamp is greater, unless it is
    /// more than ``maximumLeadMilliseconds`` ahead of `now`: then the clock stays where it is.
    ///
    /// - Returns: a ``Skew`` if `remote` is further ahead of `now` than configured: log it.
    @discardableResult
    public mutating func witness(_ remote: Stamp, wallMilliseconds now: UInt64) -> Skew? {
        let lead = remote.wallMilliseconds > now ? remote.wallMilliseconds - now : 0
        let adopted = lead <= Self.maximumLeadMilliseconds
        if adopted, remote > latest { latest = remote }
        if !adopted { diagnostics.refusedWitnesses += 1 }
        guard lead > configuration.maximumForwardSkewMilliseconds else { return nil }
        var skew = Skew(witnessed: remote, localWallMilliseconds: now)
        skew.adopted = adopted
        diagnostics.skewedWitnesses += 1
        diagnostics.largestSkewMilliseconds = max(diagnostics.largestSkewMilliseconds, skew.aheadMilliseconds)
        return skew
    }
}
