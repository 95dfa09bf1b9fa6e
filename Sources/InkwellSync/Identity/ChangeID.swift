/// The identity of one change: the replica that made it and its place in that replica's timeline.
///
/// Sequence numbers start at 1 and are contiguous per replica, so a gap means a change has not arrived yet.
public struct ChangeID: Hashable, Comparable, Sendable {
    public let replica: ReplicaID
    public let seq: UInt64

    public init(replica: ReplicaID, seq: UInt64) {
        precondition(seq >= 1, "sequence numbers start at 1")
        self.replica = replica
        self.seq = seq
    }

    /// Orders by replica, then sequence: a canonical order for encodings, not the causal order.
    @inlinable public static func < (lhs: ChangeID, rhs: ChangeID) -> Bool {
        (lhs.replica, lhs.seq) < (rhs.replica, rhs.seq)
    }
}

extension ChangeID: CustomStringConvertible {
    public var description: String { "\(replica.shortDescription):\(seq)" }
}
