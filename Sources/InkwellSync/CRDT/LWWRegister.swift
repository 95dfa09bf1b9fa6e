/// A last-writer-wins register: of all writes, the one latest in the total order holds.
///
/// Ordering by ``OpStamp`` rather than wall time alone makes ties impossible: two different
/// writes never share a stamp, so every replica picks the same winner.
public struct LWWRegister<Value> {
    /// The winning write's value.
    public var value: Value { winner }
    /// The position of the winning write in the total order.
    public var timestamp: OpStamp { winnerTimestamp }

    // Backing storage, reachable from inlinable code so that merges specialise in client modules.
    @usableFromInline var winner: Value
    @usableFromInline var winnerTimestamp: OpStamp

    @inlinable public init(_ value: Value, at timestamp: OpStamp) {
        self.winner = value
        self.winnerTimestamp = timestamp
    }

    /// Writes `newValue` unless a later write is already here.
    ///
    /// - Returns: whether the write took effect.
    @inlinable @discardableResult
    public mutating func set(_ newValue: Value, at stamp: OpStamp) -> Bool {
        guard stamp > winnerTimestamp else { return false }
        winner = newValue
        winnerTimestamp = stamp
        return true
    }
}

extension LWWRegister: Mergeable {
    /// Keeps the later write. Equal timestamps mean the same write, so there is nothing to choose.
    @inlinable public mutating func merge(_ other: LWWRegister<Value>) {
        set(other.winner, at: other.winnerTimestamp)
    }
}

extension LWWRegister: Equatable where Value: Equatable {}
extension LWWRegister: Hashable where Value: Hashable {}
extension LWWRegister: Sendable where Value: Sendable {}

extension LWWRegister: InvariantChecking {
    /// A single write has no internal invariant.
    public func checkInvariants() throws(InvariantViolation) {}
}

extension LWWRegister: CanonicallyEncodable where Value: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        timestamp.encode(to: &encoder)
        value.encode(to: &encoder)
    }
}
