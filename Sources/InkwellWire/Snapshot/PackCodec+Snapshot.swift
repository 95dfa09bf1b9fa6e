import Foundation
public import InkwellSync
import SwiftProtobuf

/// One part of a room snapshot as decoded and verified: signed by `author` for its room, and every
/// change inside named by its cover's cut. Whether the parts together hold exactly the cut is
/// ``SnapshotAssembly``'s to check, once it has them all.
public struct ReceivedSnapshotPart: Hashable, Sendable {
    /// The SHA-256 of the part's bytes.
    public let id: PackID
    public let author: ReplicaID
    public let room: String
    public let schemaVersion: UInt32
    public let cover: SnapshotCover
    public let changes: [[UInt8]]
}

extension PackCodec {
    /// The plain body each snapshot part is cut to, at most: small enough for any server's pushes
    /// (`ServerLimits`: 8 MiB), large enough that a room of a million changes takes a few dozen parts.
    public static let snapshotPartBodyBytes = 4 << 20

    /// A room snapshot as parts, each a pack signed by `author` (and sealed with `key` in an encrypted
    /// room) whose envelope carries the cover: `changes` are every change inside `cut` (each once, any
    /// author's), standing for every pack stored in the room through `position`.
    ///
    /// - Complexity: O(size of the changes), plus one signature per part.
    public static func encodeSnapshot(
        room: String,
        position: UInt64,
        cut: Cut,
        changes: [[UInt8]],
        schemaVersion: UInt32 = WireSchema.current,
        signedBy author: AuthorKey,
        sealedWith key: RoomKey? = nil,
        id: SnapshotID = .random(),
        partBodyBytes: Int = snapshotPartBodyBytes
    ) -> [[UInt8]] {
        var groups: [[[UInt8]]] = [[]]
        var size = 0
        for change in changes {
            let entry = change.count + 12
            if size + entry > partBodyBytes, !groups[groups.count - 1].isEmpty {
                groups.append([])
                size = 0
            }
            groups[groups.count - 1].append(change)
            size += entry
        }
        return groups.enumerated().map { index, group in
            let cover = SnapshotCover(
                id: id,
                position: position,
                cut: cut,
                part: UInt32(index),
                parts: UInt32(groups.count)
            )
            return encodePart(
                room: room,
                cover: cover,
                changes: group,
                schemaVersion: schemaVersion,
                author: author,
                key: key
            )
        }
    }

    /// One part: a pack whose envelope carries `cover`.
    package static func encodePart(
        room: String,
        cover: SnapshotCover,
        changes: [[UInt8]],
        schemaVersion: UInt32 = WireSchema.current,
        author: AuthorKey,
        key: RoomKey?,
        nonce: [UInt8]? = nil
    ) -> [UInt8] {
        let plain = body(changes.lazy.map { (room: "", change: $0) })
        var wire = WirePack()
        wire.schemaVersion = schemaVersion
        wire.bodySize = UInt32(plain.count)
        let (body, deflated) = compress(plain, .deflate)
        wire.compression = deflated ? .deflate : .none
        wire.body = Data(body)
        wire.room = room
        wire.author = Data(author.publicKey)
        wire.snapshot = cover.wire
        if let key { seal(&wire, with: key, nonce: nonce ?? Sealing.randomNonce()) }
        return signed(try! wire.serializedBytes(), by: author)
    }

    /// Decodes and verifies a snapshot part as ``decode(_:room:understanding:key:)`` decodes a pack,
    /// with one difference: its changes may be any replica's, and each must lie inside its cover's cut
    /// (``WireError/invalidSnapshot(_:)`` otherwise). A pack that is not a snapshot part throws
    /// ``WireError/notSnapshot``.
    ///
    /// - Complexity: O(bytes), plus one Ed25519 verification.
    public static func decodeSnapshotPart(
        _ bytes: [UInt8],
        room: String? = nil,
        understanding schema: UInt32 = WireSchema.current,
        key: RoomKey? = nil
    ) throws(WireError) -> ReceivedSnapshotPart {
        let (wire, author) = try verified(bytes, room: room)
        guard wire.hasSnapshot else { throw .notSnapshot }
        let cover = try SnapshotCover(wire: wire.snapshot)
        let body = try openedEntries(wire, understanding: schema, key: key, "snapshot part")
        var changes: [[UInt8]] = []
        changes.reserveCapacity(body.count)
        for entry in body {
            guard entry.room.isEmpty || entry.room == wire.room else { throw .invalidField("pack.entry.room") }
            try checkInside(try ChangeCodec.header(of: entry.change), cover.cut)
            changes.append(entry.change)
        }
        return ReceivedSnapshotPart(
            id: PackID(of: bytes),
            author: author,
            room: wire.room,
            schemaVersion: wire.schemaVersion,
            cover: cover,
            changes: changes
        )
    }

    /// A change named by a snapshot's cut.
    static func checkInside(_ header: ChangeCodec.Header, _ cut: Cut) throws(WireError) {
        guard header.seq >= 1, header.seq <= cut.vector[header.replica] else {
            throw .invalidSnapshot("it holds a change its cut does not name")
        }
    }
}
