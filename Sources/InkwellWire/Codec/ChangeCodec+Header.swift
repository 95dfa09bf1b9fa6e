public import InkwellSync
import SwiftProtobuf

extension ChangeCodec {
    /// Who made a change and when: enough to check its author and its stamp without decoding its
    /// operations, whatever schema wrote them.
    public struct Header: Hashable, Sendable {
        public let replica: ReplicaID
        public let seq: UInt64
        public let stamp: Stamp
    }

    /// The header of an encoded change, read the way ``decode(_:)`` reads it (the direct reader for
    /// canonical bytes, else the generated decoder), so that a field written twice cannot show a check
    /// one replica and the board another.
    ///
    /// - Throws: ``WireError/malformed(_:)`` for bytes that are not a change, and
    ///   ``WireError/invalidField(_:)`` for a replica that is not 16 bytes.
    /// - Complexity: O(size of the change).
    public static func header(of bytes: [UInt8]) throws(WireError) -> Header {
        guard bytes.count <= WireLimits.maximumChangeBytes else { throw .tooLarge("change") }
        let replica: ReplicaID?
        let seq: UInt64
        let stamp: UInt64
        if let fields = WireReader.change(bytes) {
            (replica, seq, stamp) = (ReplicaID(bytes: fields.replica), fields.seq, fields.stamp)
        } else {
            do {
                let message = try WireChange(serializedBytes: bytes)
                (replica, seq, stamp) = (ReplicaID(bytes: message.replica), message.seq, message.stamp)
            } catch {
                throw .malformed("change")
            }
        }
        guard let replica else { throw .invalidField("change.replica") }
        return Header(replica: replica, seq: seq, stamp: Stamp(rawValue: stamp))
    }
}
