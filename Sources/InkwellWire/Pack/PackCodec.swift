import CompressNIO
import Foundation
import NIOCore
import SwiftProtobuf

/// Packs to and from bytes: a `PackBody` of entries, deflated, inside a `Pack` envelope
/// (`Protos/inkwell/v1/pack.proto`).
///
/// Decoding checks the declared body size against ``WireLimits/maximumPackBodyBytes`` before it
/// inflates anything, inflates into a buffer of exactly that size, and rejects bodies that turn out
/// larger or smaller: a decompression bomb costs at most the limit. A pack from a newer schema
/// throws ``WireError/futureSchema(_:)`` before its body is opened, so the caller can store the
/// bytes aside and decode them after an upgrade.
public enum PackCodec {
    public static func encode(_ pack: Pack, compression: Compression = .deflate) -> [UInt8] {
        let plain = body(pack.entries.lazy.map { (room: $0.room, change: $0.change) })
        var wire = WirePack()
        wire.id = Data(pack.id.bytes)
        wire.schemaVersion = pack.schemaVersion
        wire.bodySize = UInt32(plain.count)
        let (body, deflated) = compress(plain, compression)
        wire.compression = deflated ? .deflate : .none
        wire.body = Data(body)
        return try! wire.serializedBytes()
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

    /// The envelope alone: enough for a server to store and index a pack without opening it.
    public static func header(of bytes: [UInt8]) throws(WireError) -> (id: PackID, schemaVersion: UInt32) {
        let wire = try envelope(bytes)
        guard let id = PackID(bytes: wire.id) else { throw .invalidField("pack.id") }
        return (id, wire.schemaVersion)
    }

    /// Checks a pack as a relay can, without interpreting its changes: the envelope, and for a plain (not
    /// encrypted) pack that its body inflates to exactly the declared size, at most `maximumBodyBytes`,
    /// and parses as a pack body. A relay that stores only validated packs never hands a peer a
    /// decompression bomb or a truncated body.
    public static func validate(
        _ bytes: [UInt8],
        maximumBodyBytes: Int = WireLimits.maximumPackBodyBytes
    ) throws(WireError) -> (id: PackID, schemaVersion: UInt32) {
        let wire = try envelope(bytes)
        guard let id = PackID(bytes: wire.id) else { throw .invalidField("pack.id") }
        guard !wire.hasEncryption else { return (id, wire.schemaVersion) }
        guard Int(wire.bodySize) <= maximumBodyBytes else { throw .tooLarge("pack body") }
        let plain = try inflate(wire)
        do {
            _ = try WirePackBody(serializedBytes: plain)
        } catch {
            throw .malformed("pack body")
        }
        return (id, wire.schemaVersion)
    }

    /// Decodes a pack written in a schema up to `schema` (this code's, unless a test says otherwise).
    public static func decode(
        _ bytes: [UInt8],
        understanding schema: UInt32 = WireSchema.current
    ) throws(WireError) -> Pack {
        let wire = try envelope(bytes)
        guard let id = PackID(bytes: wire.id) else { throw .invalidField("pack.id") }
        guard wire.schemaVersion <= schema else { throw .futureSchema(wire.schemaVersion) }
        guard !wire.hasEncryption else { throw .encrypted }
        let body = try entries(ofBody: try inflate(wire), "pack body")
        guard body.count <= WireLimits.maximumEntriesPerPack else { throw .tooLarge("pack entries") }
        var entries: [Pack.Entry] = []
        entries.reserveCapacity(body.count)
        for entry in body {
            guard !entry.room.isEmpty, entry.room.utf8.count <= WireLimits.maximumNameBytes else {
                throw .invalidField("pack.entry.room")
            }
            entries.append(Pack.Entry(room: entry.room, change: entry.change))
        }
        return Pack(id: id, schemaVersion: wire.schemaVersion, entries: entries)
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

    static func inflate(_ wire: WirePack) throws(WireError) -> [UInt8] {
        let size = Int(wire.bodySize)
        guard size <= WireLimits.maximumPackBodyBytes else { throw .tooLarge("pack body") }
        switch wire.compression {
        case .none:
            guard wire.body.count == size else { throw .invalidField("pack.body_size") }
            return Array(wire.body)
        case .deflate:
            return try inflate(Array(wire.body), size: size)
        case .UNRECOGNIZED:
            throw .unsupportedCompression
        }
    }

    /// A raw deflate stream inflated to exactly `size` bytes: longer, shorter, cut-short or trailing
    /// streams throw.
    ///
    /// - Complexity: O(`size`).
    package static func inflate(_ compressed: [UInt8], size: Int) throws(WireError) -> [UInt8] {
        var compressed = ByteBuffer(bytes: compressed)
        var plain = ByteBufferAllocator().buffer(capacity: size)
        let decompressor = CompressionAlgorithm.deflate().decompressor
        var probe = ByteBuffer(bytes: [0])
        var room = ByteBufferAllocator().buffer(capacity: 1)
        do {
            try decompressor.startStream()
            defer { try? decompressor.finishStream() }
            try decompressor.streamInflate(from: &compressed, to: &plain)
            // zlib also stops without an error when the input runs out mid-stream: a body cut short
            // whose inflated bytes happen to match the declared size must still be refused. A
            // stream that has ended leaves one more byte unread; one that has not takes it or fails.
            try decompressor.streamInflate(from: &probe, to: &room)
        } catch {
            throw .malformed("pack body compression")
        }
        guard probe.readableBytes == 1, room.readableBytes == 0 else { throw .malformed("pack body compression") }
        guard plain.readableBytes == size, compressed.readableBytes == 0 else {
            throw .invalidField("pack.body_size")
        }
        return Array(plain.readableBytesView)
    }
}
