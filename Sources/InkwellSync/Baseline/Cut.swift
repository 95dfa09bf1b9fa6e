/// A prefix of every timeline: how far each replica's changes are included, and the stamp of the
/// last included change of each.
///
/// Baselines and change-log frontiers are cuts; the stamps are what the stable cut-off rule needs.
public struct Cut: Hashable, Sendable {
    /// The highest included seq per replica.
    public private(set) var vector: VersionVector
    /// The stamp of the change at `vector[replica]`, for every replica in the vector.
    public private(set) var stamps: [ReplicaID: Stamp]

    public init() {
        self.vector = VersionVector()
        self.stamps = [:]
    }

    /// Builds a cut from per-replica (seq, stamp of that change) pairs.
    public init(_ frontiers: [ReplicaID: (seq: UInt64, stamp: Stamp)]) {
        self.init()
        for (replica, frontier) in frontiers { include(ChangeID(replica: replica, seq: frontier.seq), frontier.stamp) }
    }

    /// Extends the cut through `id`, whose stamp is `stamp`; never moves it back.
    public mutating func include(_ id: ChangeID, _ stamp: Stamp) {
        guard id.seq > vector[id.replica] else { return }
        vector[id.replica] = id.seq
        stamps[id.replica] = stamp
    }

    /// Clear's rule: the least of the timelines' last stamps.
    ///
    /// Stamps grow along a timeline, so any change of these replicas still to come is stamped after
    /// its timeline's last one, hence after the cut-off: everything at or before it is already here.
    /// `nil` for an empty cut.
    ///
    /// - Complexity: O(replicas).
    public var stableCutoff: Stamp? { stamps.values.min() }
}

extension Cut: Mergeable {
    /// Per replica, the further of the two frontiers with its stamp.
    public mutating func merge(_ other: Cut) {
        for (replica, seq) in other.vector.entries {
            include(ChangeID(replica: replica, seq: seq), other.stamps[replica]!)
        }
    }
}

extension Cut: InvariantChecking {
    public func checkInvariants() throws(InvariantViolation) {
        try vector.checkInvariants()
        try require(Set(stamps.keys) == Set(vector.replicas), "stamps and vector name different replicas")
    }
}

extension Cut: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        vector.encode(to: &encoder)
        encoder.writeUnordered(stamps)
    }
}
