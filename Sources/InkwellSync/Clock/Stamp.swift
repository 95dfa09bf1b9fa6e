/// A hybrid logical clock reading: 48 bits of wall-clock milliseconds, then a 16-bit counter.
///
/// Comparing raw values compares wall time first and the counter second, so stamps order like clocks
/// while still being plain 64-bit integers on the wire and in indexes.
public struct Stamp: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: UInt64

    /// The largest wall time a stamp can hold, in milliseconds since 1970 (about the year 10889).
    public static let maxWallMilliseconds: UInt64 = (1 << 48) - 1
    /// The largest counter value; one more borrows the next millisecond.
    public static let maxCounter: UInt16 = .max
    /// Before every real stamp.
    public static let zero = Stamp(rawValue: 0)

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public init(wallMilliseconds: UInt64, counter: UInt16 = 0) {
        precondition(wallMilliseconds <= Stamp.maxWallMilliseconds, "wall time does not fit in 48 bits")
        self.rawValue = wallMilliseconds << 16 | UInt64(counter)
    }

    public var wallMilliseconds: UInt64 { rawValue >> 16 }
    public var counter: UInt16 { UInt16(truncatingIfNeeded: rawValue) }

    @inlinable public static func < (lhs: Stamp, rhs: Stamp) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Stamp: CustomStringConvertible {
    public var description: String { "\(wallMilliseconds).\(counter)" }
}
