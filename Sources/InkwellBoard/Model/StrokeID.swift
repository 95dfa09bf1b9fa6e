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
    public var description: String {
        // 32 hex digits, two dashes, at most 20 and 10 decimal digits: written in one buffer.
        String(unsafeUninitializedCapacity: 64) { buffer in
            var end = change.replica.writeHex(into: buffer, at: 0)
            buffer[end] = UInt8(ascii: "-")
            end = Self.writeDecimal(change.seq, into: buffer, at: end + 1)
            buffer[end] = UInt8(ascii: "-")
            return Self.writeDecimal(UInt64(index), into: buffer, at: end + 1)
        }
    }

    private static func writeDecimal(
        _ value: UInt64,
        into buffer: UnsafeMutableBufferPointer<UInt8>,
        at start: Int
    )
        -> Int
    {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var remaining = value
        for position in stride(from: start + digits - 1, through: start, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        return start + digits
    }

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
