import Crypto
import Foundation
public import InkwellSync
import SwiftProtobuf

/// Packs to and from bytes: a `PackBody` of entries, deflated, inside a `Pack` envelope
/// (`Protos/inkwell/v1/pack.proto`) that names the room and the author's key and ends with the author's
/// signature. A pack's id is the SHA-256 of its bytes (``PackID/init(of:)``).
///
/// Decoding checks the signature before anything else is opened (``verified(_:room:)``), then the
/// declared body size against ``WireLimits/maximumPackBodyBytes`` before it
/// inflates anything, inflates into a buffer of exactly that size, and rejects bodies that turn out
/// larger or smaller: a decompression bomb costs at most the limit. A pack from a newer schema
/// throws ``WireError/futureSchema(_:)`` before its body is opened, so the caller can store the
/// bytes aside and decode them after an upgrade.
///
/// In an encrypted room the body is sealed with the room's ``RoomKey`` before it is signed
/// (`docs/ACCESS-FORMATS.md`, "Packs"): a relay still checks the signer and the room, and only the key's
/// holders open the body and check what is inside.
public enum PackCodec {
    /// Encodes `pack` and signs it with `author`, whose replica must be that of every change inside;
    /// with `key`, seals the (compressed) body first, under a fresh random nonce.
    ///
    /// Entries leave their room out: the envelope names it once. The signature is the last field, over
    /// ``signingPrefix`` and every byte before it, so the same changes and key give the same bytes and id
    /// (a sealed pack differs with every nonce). It covers the sealed body, so a relay checks who wrote
    /// a sealed pack, and for which room, without the key.
    ///
    /// - Complexity: O(size of the changes), plus one Ed25519 signature.
    public static func encode(
        _ pack: Pack,
        signedBy author: AuthorKey,
        compression: Compression = .deflate,
        sealedWith key: RoomKey? = nil
    ) -> [UInt8] {
        encode(pack, signedBy: author, compression: compression, seal: key.map { ($0, Sealing.randomNonce()) })
    }

    /// A pack sealed under the given `nonce` (12 bytes): for conformance vectors and tests only, since
    /// a nonce used twice with one key gives away both bodies.
    package static func encode(
        _ pack: Pack,
        signedBy author: AuthorKey,
        compression: Compression = .deflate,
        sealedWith key: RoomKey,
        nonce: [UInt8]
    ) -> [UInt8] {
        encode(pack, signedBy: author, compression: compression, seal: (key, nonce))
    }

    private static func encode(
        _ pack: Pack,
        signedBy author: AuthorKey,
        compression: Compression,
        seal: (key: RoomKey, nonce: [UInt8])?
    ) -> [UInt8] {
        let plain = body(pack.changes.lazy.map { (room: "", change: $0) })
        var wire = WirePack()
        wire.schemaVersion = pack.schemaVersion
        wire.bodySize = UInt32(plain.count)
        let (body, deflated) = compress(plain, compression)
        wire.compression = deflated ? .deflate : .none
        wire.body = Data(body)
        wire.room = pack.room
        wire.author = Data(author.publicKey)
        if let seal { Self.seal(&wire, with: seal.key, nonce: seal.nonce) }
        return signed(try! wire.serializedBytes(), by: author)
    }

    /// An encoded `PackBody` of `(room, change)` entries, written directly (see ``WireWriter``): the same
    /// bytes as the generated `WirePackBody`, without a `Data` and a message per entry. An empty room is
    /// left out, as proto3 leaves out empty strings (snapshots store their room once, outside).
    ///
    /// - Complexity: O(total size of the changes).
    package static func body(_ entries: some Collection<(room: String, change: [UInt8])>) -> [UInt8] {
        var size = 0
        for (room, change) in entries { size += room.utf8.count + change.count + 12 }
        var wire = WireWriter(capacity: size)
        for (room, change) in entries {
            let roomSize = room.utf8.count
            let length =
                (roomSize == 0 ? 0 : 1 + WireWriter.varintSize(UInt64(roomSize)) + roomSize)
                + (change.isEmpty ? 0 : 1 + WireWriter.varintSize(UInt64(change.count)) + change.count)
            wire.key(1, 2)
            wire.varint(UInt64(length))
            if roomSize != 0 { wire.field(1, room.utf8) }
            if !change.isEmpty { wire.field(2, change) }
        }
        return wire.bytes
    }

    /// The same bytes as ``body(_:)``, through the generated messages: the reference it is tested against.
    static func generatedBody(_ entries: some Collection<(room: String, change: [UInt8])>) -> [UInt8] {
        var body = WirePackBody()
        body.entries = entries.map { entry in
            var wire = WirePackEntry()
            wire.room = entry.room
            wire.change = Data(entry.change)
            return wire
        }
        return try! body.serializedBytes()
    }

    /// The envelope alone, unverified: enough to store a pack aside and index it without opening it.
    public static func header(of bytes: [UInt8]) throws(WireError) -> (id: PackID, schemaVersion: UInt32, room: String)
    {
        let wire = try envelope(bytes)
        return (PackID(of: bytes), wire.schemaVersion, wire.room)
    }

    /// What a relay learns from checking a pack: who signed it, and for a plain pack the greatest stamp
    /// inside (`nil` for a sealed one, whose changes it cannot see).
    public struct Validated: Hashable, Sendable {
        public let id: PackID
        public let schemaVersion: UInt32
        public let author: ReplicaID
        public let latestStamp: Stamp?
        /// What a snapshot part claims; `nil` for a pack of changes.
        public var snapshot: SnapshotCover? = nil
    }

    /// Checks a pack as a relay can without interpreting edits: the envelope, the signature, that it was
    /// signed for `room`, and for a plain (not sealed) pack that its body inflates to exactly the
    /// declared size, at most `maximumBodyBytes`, and holds only changes of its signer's replica, each
    /// with a seq from 1 to ``WireLimits/maximumSeq``. A relay that stores only validated packs never
    /// hands a peer a decompression bomb, a truncated body or a forged change.
    ///
    /// A sealed pack is checked as far as it can be without the key: its scheme, key id and nonce
    /// sizes, a declared size at most `maximumBodyBytes`, and a sealed body no larger than a body of that
    /// size can seal to (``maximumSealedBodyBytes(bodySize:)``). Its entries are for the key's holders
    /// to check when they open it.
    ///
    /// - Complexity: O(bytes), plus one Ed25519 verification.
    public static func validate(
        _ bytes: [UInt8],
        room: String,
        maximumBodyBytes: Int = WireLimits.maximumPackBodyBytes
    ) throws(WireError) -> Validated {
        let (wire, author) = try verified(bytes, room: room)
        let id = PackID(of: bytes)
        let cover = wire.hasSnapshot ? try SnapshotCover(wire: wire.snapshot) : nil
        guard !wire.hasEncryption else {
            try checkSealedEnvelope(wire, maximumBodyBytes: maximumBodyBytes)
            return Validated(
                id: id,
                schemaVersion: wire.schemaVersion,
                author: author,
                latestStamp: nil,
                snapshot: cover
            )
        }
        guard Int(wire.bodySize) <= maximumBodyBytes else { throw .tooLarge("pack body") }
        let body = try entries(ofBody: try inflate(wire), "pack body")
        guard body.count <= WireLimits.maximumEntriesPerPack else { throw .tooLarge("pack entries") }
        var latest: Stamp?
        for entry in body {
            let header: ChangeCodec.Header
            if let cover {
                // A snapshot holds any author's changes, each named by its cut.
                guard entry.room.isEmpty || entry.room == wire.room else { throw .invalidField("pack.entry.room") }
                header = try ChangeCodec.header(of: entry.change)
                try checkInside(header, cover.cut)
            } else {
                header = try checkedEntry(entry, of: wire.room, by: author)
            }
            guard header.seq >= 1, header.seq <= WireLimits.maximumSeq else { throw .invalidField("change.seq") }
            latest = max(latest ?? header.stamp, header.stamp)
        }
        return Validated(
            id: id,
            schemaVersion: wire.schemaVersion,
            author: author,
            latestStamp: latest,
            snapshot: cover
        )
    }

    /// Decodes and verifies a pack written in a schema up to `schema` (this code's, unless a test says
    /// otherwise). With `room`, a pack signed for another room throws ``WireError/wrongRoom``. With
    /// `key`, the room is encrypted: a sealed pack is opened with it (its envelope checked as
    /// ``validate(_:room:maximumBodyBytes:)`` does, then ``WireError/wrongKey`` for another key's id and
    /// ``WireError/tampered`` when it does not authenticate), and a plain pack throws
    /// ``WireError/unsealed``. The opened body is then checked exactly as a plain pack's.
    ///
    /// - Throws: ``WireError/futureSchema(_:)`` or ``WireError/encrypted`` (a sealed pack and no key)
    ///   only after the signature holds, so what a caller keeps aside for later is at least the signer's;
    ///   ``WireError/snapshotPart`` for a part of a room snapshot, which
    ///   ``decodeSnapshotPart(_:room:understanding:key:)`` reads.
    /// - Complexity: O(bytes), plus one Ed25519 verification.
    public static func decode(
        _ bytes: [UInt8],
        room: String? = nil,
        understanding schema: UInt32 = WireSchema.current,
        key: RoomKey? = nil
    ) throws(WireError) -> ReceivedPack {
        let (wire, author) = try verified(bytes, room: room)
        guard !wire.hasSnapshot else { throw .snapshotPart }
        let body = try openedEntries(wire, understanding: schema, key: key, "pack")
        var changes: [[UInt8]] = []
        changes.reserveCapacity(body.count)
        for entry in body {
            // A change from a newer schema is the caller's to set aside; its replica is still checked.
            _ = try checkedEntry(entry, of: wire.room, by: author, understanding: schema)
            changes.append(entry.change)
        }
        return ReceivedPack(
            id: PackID(of: bytes),
            author: author,
            pack: Pack(room: wire.room, schemaVersion: wire.schemaVersion, changes: changes)
        )
    }

    /// The entries of a verified envelope's body: refused when its schema is newer than `schema`, opened
    /// with `key` when sealed (a plain body where there is a key is ``WireError/unsealed``, a sealed one
    /// without is ``WireError/encrypted``), inflated to its declared size, and at most
    /// ``WireLimits/maximumEntriesPerPack``. `what` names the pack in errors.
    static func openedEntries(
        _ wire: WirePack,
        understanding schema: UInt32,
        key: RoomKey?,
        _ what: String
    ) throws(WireError) -> [(room: String, change: [UInt8])] {
        guard wire.schemaVersion <= schema else { throw .futureSchema(wire.schemaVersion) }
        let plain: [UInt8]
        switch (wire.hasEncryption, key) {
        case (false, nil): plain = try inflate(wire)
        case (false, _?): throw .unsealed
        case (true, nil): throw .encrypted
        case (true, let key?): plain = try inflate(try opened(wire, key: key), wire)
        }
        let body = try entries(ofBody: plain, "\(what) body")
        guard body.count <= WireLimits.maximumEntriesPerPack else { throw .tooLarge("\(what) entries") }
        return body
    }

    /// An entry's room is the pack's (written or left out), and its change is the author's.
    private static func checkedEntry(
        _ entry: (room: String, change: [UInt8]),
        of room: String,
        by author: ReplicaID,
        understanding schema: UInt32 = .max
    ) throws(WireError) -> ChangeCodec.Header {
        guard entry.room.isEmpty || entry.room == room else { throw .invalidField("pack.entry.room") }
        let header = try ChangeCodec.header(of: entry.change)
        guard header.replica == author else { throw .forgedAuthor }
        return header
    }

    /// The entries of an encoded `PackBody`: read directly when the bytes are in canonical form (see
    /// ``WireReader``), else by the generated decoder, which throws `malformed(what)` for bad bytes.
    ///
    /// - Complexity: O(bytes).
    static func entries(ofBody plain: [UInt8], _ what: String) throws(WireError) -> [(room: String, change: [UInt8])] {
        if let entries = WireReader.packBody(plain) { return entries }
        do {
            return try WirePackBody(serializedBytes: plain).entries.map { (room: $0.room, change: Array($0.change)) }
        } catch {
            throw .malformed(what)
        }
    }

    static func envelope(_ bytes: [UInt8]) throws(WireError) -> WirePack {
        guard bytes.count <= WireLimits.maximumPackBodyBytes else { throw .tooLarge("pack") }
        do {
            return try WirePack(serializedBytes: bytes)
        } catch {
            throw .malformed("pack")
        }
    }

    /// `wire`'s body, decompressed as it says to exactly its declared size.
    static func inflate(_ wire: WirePack) throws(WireError) -> [UInt8] {
        try inflate(Array(wire.body), wire)
    }

    /// `body`, what `wire` carries in its body (or, sealed, what opening it gave), decompressed as
    /// `wire` says to exactly its declared size, which may be at most `maximumBytes`.
    static func inflate(
        _ body: [UInt8],
        _ wire: WirePack,
        maximumBytes: Int = WireLimits.maximumPackBodyBytes
    ) throws(WireError) -> [UInt8] {
        let size = Int(wire.bodySize)
        guard size <= maximumBytes else { throw .tooLarge("pack body") }
        switch wire.compression {
        case .none:
            guard body.count == size else { throw .invalidField("pack.body_size") }
            return body
        case .deflate:
            return try inflate(body, size: size)
        case .UNRECOGNIZED:
            throw .unsupportedCompression
        }
    }
}
