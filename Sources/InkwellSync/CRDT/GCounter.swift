/// A grow-only counter: each replica counts its own increments, merge takes the per-replica maximum.
public struct GCounter: Mergeable, Hashable, Sendable {
    /// Per-replica totals; a replica with nothing counted has no entry, so equal counters are equal values.
    public private(set) var counts: [ReplicaID: UInt64] = [:]

    public init() {}

    /// The sum over all replicas, or `UInt64.max` if more: counts merged from other replicas can add up
    /// past it (``checkInvariants()`` reports that).
    ///
    /// - Complexity: O(number of replicas).
    public var value: UInt64 {
        counts.values.saturatingSum()
    }

    /// Adds `amount` on behalf of `replica`; only that replica may do so.
    public mutating func increment(_ replica: ReplicaID, by amount: UInt64 = 1) {
        guard amount > 0 else { return }
        let (sum, overflow) = counts[replica, default: 0].addingReportingOverflow(amount)
        precondition(!overflow, "GCounter overflow")
        counts[replica] = sum
    }

    /// - Complexity: O(replicas in `other`).
    public mutating func merge(_ other: GCounter) {
        counts.merge(other.counts, uniquingKeysWith: max)
    }
}

extension GCounter: InvariantChecking {
    public func checkInvariants() throws(InvariantViolation) {
        try require(!counts.values.contains(0), "zero entry kept")
        var total: UInt64 = 0
        for count in counts.values {
            let (sum, overflow) = total.addingReportingOverflow(count)
            try require(!overflow, "total overflows")
            total = sum
        }
    }
}

extension GCounter: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeUnordered(counts) }
}
