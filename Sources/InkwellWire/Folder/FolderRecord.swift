public import InkwellSync

/// One record of a folder file (``FolderLog``).
public enum FolderRecord: Hashable, Sendable {
    /// The first record of every file: the room its packs belong to, and the replica that writes it.
    case header(room: String, replica: ReplicaID)
    /// A pack, byte for byte as a server stores and relays it.
    case pack([UInt8])
    /// A kind this version does not know, kept as read: a newer writer's, skipped by readers.
    case unknown(kind: UInt8, bytes: [UInt8])

    /// The kinds' bytes.
    enum Kind: UInt8 {
        case header = 1
        case pack = 2
    }

    /// The record's body: its kind, then the kind's bytes. A header is the room's length (one byte), its
    /// UTF-8 bytes and the replica's sixteen bytes.
    var body: [UInt8] {
        switch self {
        case .header(let room, let replica):
            let name = Array(room.utf8)
            precondition(SyncProtocol.isValidRoom(room), "a folder header for a room the protocol cannot carry")
            return [Kind.header.rawValue, UInt8(name.count)] + name + replica.bytes
        case .pack(let bytes):
            return [Kind.pack.rawValue] + bytes
        case .unknown(let kind, let bytes):
            return [kind] + bytes
        }
    }

    /// Reads a body whose length and checksum held.
    ///
    /// - Throws: ``WireError/malformed(_:)`` for an empty body or a header that does not parse.
    static func decode(body: ArraySlice<UInt8>) throws(WireError) -> FolderRecord {
        guard let kind = body.first else { throw .malformed("an empty folder record") }
        let rest = body.dropFirst()
        switch Kind(rawValue: kind) {
        case .header:
            guard let length = rest.first.map(Int.init), rest.count == 1 + length + 16 else {
                throw .malformed("a folder header of the wrong length")
            }
            let nameBytes = rest.dropFirst().prefix(length)
            guard let room = String(validating: nameBytes, as: UTF8.self), SyncProtocol.isValidRoom(room),
                let replica = ReplicaID(bytes: rest.suffix(16))
            else { throw .malformed("a folder header naming no valid room") }
            return .header(room: room, replica: replica)
        case .pack:
            return .pack(Array(rest))
        case nil:
            return .unknown(kind: kind, bytes: Array(rest))
        }
    }
}
