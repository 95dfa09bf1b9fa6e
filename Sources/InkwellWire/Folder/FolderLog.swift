import CLibDeflate
public import InkwellSync

/// The file format of the shared-folder transport: one append-only file per replica and room, which a
/// tool outside Inkwell (a file-sync service, `rsync`, a USB stick) copies between machines.
///
/// A file is self-describing and versioned: an 8-byte signature, the format's version (`UInt32`,
/// little-endian), then records. Every record is its body's length (`UInt32`, little-endian), the body's
/// CRC-32 (`UInt32`, little-endian), then the body: one byte of kind and the kind's bytes. The first
/// record is a ``FolderRecord/header(room:replica:)``; the others carry packs exactly as a server
/// relays them (signed, and sealed in an encrypted room), so the folder never holds anything a server
/// would not. A reader keeps what it cannot read yet: records of a kind it does not know are skipped.
///
/// A copy in progress, a torn tail or a sync tool's conflict copy is read up to its last whole record:
/// a record counts only once its length and checksum hold (``FolderLogReader``).
public enum FolderLog {
    /// The file's signature. Like PNG's: a high byte, the name, and line endings and an end-of-file mark
    /// that a text-mode copy would mangle.
    public static let signature: [UInt8] = [0x89, 0x49, 0x4E, 0x4B, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The version written, and the newest read.
    public static let version: UInt32 = 1
    /// Signature and version.
    public static let fileHeaderBytes = 12
    /// A record's length and checksum.
    public static let recordHeaderBytes = 8
    /// The largest record body read: a pack of the largest body the wire allows, plus its envelope. A
    /// record that claims more is damage, never a reason to allocate.
    public static let maximumRecordBytes = WireLimits.maximumPackBodyBytes + (1 << 20)
    /// The extension of the files a folder's readers look at (others, and hidden files, are left alone).
    public static let fileExtension = "ink"

    /// The start of a new file: signature, version and the header record.
    public static func fileStart(room: String, replica: ReplicaID) -> [UInt8] {
        var bytes = signature
        append(version, to: &bytes)
        bytes += encode(.header(room: room, replica: replica))
        return bytes
    }

    /// One record, framed: length, checksum, body.
    public static func encode(_ record: FolderRecord) -> [UInt8] {
        let body = record.body
        precondition(body.count <= maximumRecordBytes, "a folder record over the format's limit")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(recordHeaderBytes + body.count)
        append(UInt32(body.count), to: &bytes)
        append(checksum(body), to: &bytes)
        bytes += body
        return bytes
    }

    /// The CRC-32 (IEEE, as zlib's and gzip's) of `bytes`.
    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        let crc = bytes.withContiguousStorageIfAvailable { buffer in
            libdeflate_crc32(0, buffer.baseAddress, buffer.count)
        }
        return crc ?? Array(bytes).withUnsafeBufferPointer { libdeflate_crc32(0, $0.baseAddress, $0.count) }
    }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
