/// Which changes a replica, snapshot or baseline contains: for each timeline, the highest sequence
/// number up to which every change is present ("A:6, B:3, C:7").
///
/// Because timelines are contiguous, this small map decides subset and union of whole change sets.
/// Replicas with nothing are left out, so equal sets of changes always give equal vectors.
public struct VersionVector: Hashable, Sendable {
    /// Highest contiguous sequence number per replica; never holds a zero.
    public private(set) var entries: [ReplicaID: UInt64]

    public init() {
        self.entries = [:]
    }

    public init(_ entries: [ReplicaID: UInt64]) {
        self.entries = entries.filter { $0.value > 0 }
    }

    /// The highest contiguous seq of `replica`, 0 when none of its changes are included.
    public subscript(replica: ReplicaID) -> UInt64 {
        get { entries[replica] ?? 0 }
        set { entries[replica] = newValue == 0 ? nil : newValue }
    }

    /// Whether the change is included.
    ///
    /// - Complexity: O(1).
    public func contains(_ id: ChangeID) -> Bool {
        id.seq <= self[id.replica]
    }

    /// Includes `id` and every earlier change of its timeline.
    public mutating func advance(through id: ChangeID) {
        if id.seq > self[id.replica] { entries[id.replica] = id.seq }
    }

    /// The replicas with at least one change included.
    public var replicas: Dictionary<ReplicaID, UInt64>.Keys { entries.keys }

    public var isEmpty: Bool { entries.isEmpty }

    /// How many changes the vector describes, or `UInt64.max` if more: a vector from elsewhere can name
    /// any seqs.
    public var changeCount: UInt64 { entries.values.saturatingSum() }
}

extension VersionVector: Mergeable {
    /// The union of both change sets: the per-replica maximum.
    ///
    /// - Complexity: O(replicas in `other`).
    public mutating func merge(_ other: VersionVector) {
        entries.merge(other.entries, uniquingKeysWith: max)
    }
}

extension VersionVector: InvariantChecking {
    public func checkInvariants() throws(InvariantViolation) {
        try require(!entries.values.contains(0), "zero entry kept")
    }
}

extension VersionVector: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) { encoder.writeUnordered(entries) }
}

extension VersionVector: CustomStringConvertible {
    /// Replicas in id order, e.g. `[1a2b3c4d:6, 5e6f7a8b:3]`.
    public var description: String {
        let parts = entries.sorted { $0.key < $1.key }.map { "\($0.key.shortDescription):\($0.value)" }
        return "[" + parts.joined(separator: ", ") + "]"
    }
}
