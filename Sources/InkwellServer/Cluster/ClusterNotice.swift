import Foundation
import InkwellSync
import InkwellWire

extension ClusterFeed {
    /// One notification between the nodes of a cluster: which node sent it, the heads it committed and
    /// the presence its members sent.
    ///
    /// It travels as the Base64 of protocol-buffer bytes, one decode per notification however many heads
    /// and cursors it carries, laid out as this message would be:
    ///
    ///     message ClusterNotice {
    ///       string node = 1;
    ///       repeated Head heads = 2;       // message Head { string room = 1; uint64 head = 2; }
    ///       repeated bytes presences = 3;  // Presence messages, as SyncCodec.encodePresence writes them
    ///     }
    ///
    /// Anyone who may `NOTIFY` on the database could send one, so reading is strict (the fields in that
    /// order, nothing else) and a notice is only ever a hint: heads make a node read the log, and presence
    /// is decoded as the protocol's before it is relayed.
    struct Notice: Equatable {
        let node: String
        var heads: [String: UInt64] = [:]
        /// Encoded `Presence` messages.
        var presences: [[UInt8]] = []

        init(node: String, heads: [String: UInt64] = [:], presences: [[UInt8]] = []) {
            self.node = node
            self.heads = heads
            self.presences = presences
        }

        /// The notification's payload.
        var encoded: String {
            var writer = WireWriter(capacity: 64)
            writer.field(1, Array(node.utf8))
            for (room, head) in heads.sorted(by: { $0.key < $1.key }) {
                var entry = WireWriter(capacity: room.utf8.count + 12)
                entry.field(1, Array(room.utf8))
                entry.varintField(2, head)
                writer.field(2, entry.bytes)
            }
            for presence in presences { writer.field(3, presence) }
            return Data(writer.bytes).base64EncodedString()
        }

        /// Reads a payload; nil for one that is not a notice.
        init?(payload: String) {
            guard let data = Data(base64Encoded: payload) else { return nil }
            let bytes = Array(data)
            var reader = WireReader(bytes)
            guard let node = reader.lengthDelimited(1).flatMap({ WireReader.text(bytes, $0) }) else { return nil }
            self.node = node
            while let range = reader.lengthDelimited(2) {
                var entry = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
                // A head of 0 is left out, as proto3 leaves out default values.
                guard let room = entry.lengthDelimited(1).flatMap({ WireReader.text(bytes, $0) }),
                    let head = entry.key(2, 0) ? entry.varint() : 0, entry.isAtEnd
                else { return nil }
                heads[room] = max(heads[room] ?? 0, head)
            }
            while let range = reader.lengthDelimited(3) { presences.append(Array(bytes[range])) }
            guard reader.isAtEnd else { return nil }
        }

        /// The presence it carries that decodes as the protocol's, for rooms named as the protocol allows.
        var decodedPresences: [Presence] {
            presences.compactMap { bytes in
                guard case .presence(let presence)? = try? SyncCodec.decodeServer(SyncCodec.presenceFrame([bytes]))
                else { return nil }
                return presence
            }
        }

        /// The bytes a head takes in a notice, before Base64.
        static func size(room: String, head: UInt64) -> Int {
            WireWriter.fieldSize(WireWriter.fieldSize(room.utf8.count) + 1 + WireWriter.varintSize(head))
        }

        /// The bytes a presence takes in a notice, before Base64.
        static func size(presence: [UInt8]) -> Int { WireWriter.fieldSize(presence.count) }
    }
}
