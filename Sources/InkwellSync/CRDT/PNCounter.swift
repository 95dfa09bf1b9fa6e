/// A counter that goes up and down: two grow-only counters, one for increments and one for decrements.
public struct PNCounter: Mergeable, Hashable, Sendable {
    public private(set) var increments = GCounter()
    public private(set) var decrements = GCounter()

    public init() {}

    /// Increments minus decrements.
    public var value: Int64 {
        Int64(bitPattern: increments.value &- decrements.value)
    }

    public mutating func increment(_ replica: ReplicaID, by amount: UInt64 = 1) {
        increments.increment(replica, by: amount)
    }

    public mutating func decrement(_ replica: ReplicaID, by amount: UInt64 = 1) {
        decrements.increment(replica, by: amount)
    }

    public mutating func merge(_ other: PNCounter) {
        increments.merge(other.increments)
        decrements.merge(other.decrements)
    }
}

extension PNCounter: InvariantChecking {
    public func checkInvariants() throws(InvariantViolation) {
        try increments.checkInvariants()
        try decrements.checkInvariants()
    }
}

extension PNCounter: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        increments.encode(to: &encoder)
        decrements.encode(to: &encoder)
    }
}
