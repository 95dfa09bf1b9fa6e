/// A run of contiguous changes of one timeline: what anti-entropy asks for and sends.
public struct TimelineRange: Hashable, Sendable {
    public let replica: ReplicaID
    public let seqs: ClosedRange<UInt64>

    public init(replica: ReplicaID, seqs: ClosedRange<UInt64>) {
        precondition(seqs.lowerBound >= 1, "sequence numbers start at 1")
        self.replica = replica
        self.seqs = seqs
    }

    public var count: UInt64 { seqs.upperBound - seqs.lowerBound + 1 }

    public func contains(_ id: ChangeID) -> Bool {
        id.replica == replica && seqs.contains(id.seq)
    }
}

extension VersionVector {
    /// The changes `self` describes that `other` lacks, one range per timeline, in replica order.
    ///
    /// A peer sends its vector; the answer says exactly what to send it.
    ///
    /// - Complexity: O(r log r) for r replicas in `self`.
    public func missing(from other: VersionVector) -> [TimelineRange] {
        entries.compactMap { replica, seq -> TimelineRange? in
            let theirs = other[replica]
            return seq > theirs ? TimelineRange(replica: replica, seqs: (theirs + 1)...seq) : nil
        }
        .sorted { $0.replica < $1.replica }
    }
}
