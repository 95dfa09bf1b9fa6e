public import InkwellSync

/// A stroke's identity, derived from the change that added it and the operation's index in it.
///
/// Deriving it makes ids unique without coordination, and lets an operation name a stroke
/// (and its creator) before the stroke itself has arrived.
public struct StrokeID: Hashable, Comparable, Sendable {
    public let change: ChangeID
    public let index: UInt32

    public init(change: ChangeID, index: UInt32 = 0) {
        self.change = change
        self.index = index
    }

    /// The replica that drew the stroke: the only one allowed to append to it.
    public var creator: ReplicaID { change.replica }

    public static func < (lhs: StrokeID, rhs: StrokeID) -> Bool {
        (lhs.change, lhs.index) < (rhs.change, rhs.index)
    }
}

extension StrokeID: CustomStringConvertible {
    /// `<replica hex>-<seq>-<index>`: also the stroke's identifier in the JSON interop protocol.
    public var description: String { "\(change.replica)-\(change.seq)-\(index)" }

    /// Parses ``description``.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let replica = ReplicaID(hex: parts[0]), let seq = UInt64(parts[1]), seq >= 1,
            let index = UInt32(parts[2])
        else { return nil }
        self.init(change: ChangeID(replica: replica, seq: seq), index: index)
    }
}

extension StrokeID: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        change.encode(to: &encoder)
        encoder.writeVarint(UInt64(index))
    }
}
