/// Reads the whole records of a folder file (``FolderLog``) from bytes read so far, and says where to go
/// on from: the end of the last whole record, whatever follows it.
///
/// Bytes past that point are not an error: they are a record still being copied or appended, or a tail
/// torn by a crash, and a later read of the grown file takes them once they are whole. Only what cannot
/// become valid by growing stops a file for good (``Stop/damaged(_:)``), and even then every record
/// before it counts.
public struct FolderLogReader: Sendable {
    /// Why reading stopped where it did.
    public enum Stop: Hashable, Sendable {
        /// At the end of the bytes, after a whole record.
        case end
        /// Inside a record (or the file's header) that is not all there yet.
        case incomplete
        /// At bytes no amount of growing makes whole: a checksum that does not hold, a length over the
        /// limit, another format, the first record not a header. Said in words, for the log.
        case damaged(String)
        /// Written by a newer format version than this one reads.
        case newerVersion(UInt32)
    }

    /// One whole record and where it starts in the file.
    public struct Entry: Hashable, Sendable {
        public var offset: Int
        public var record: FolderRecord
    }

    /// What a read found.
    public struct Chunk: Hashable, Sendable {
        /// The whole records, in file order.
        public var entries: [Entry] = []
        /// The file offset after the last whole record (or the file's start if none): where the next read
        /// of this file starts.
        public var next: Int
        public var stop: Stop
    }

    /// Reads `bytes`, the file's contents from offset `start` on. At offset 0 the file's signature, version
    /// and header record come first; elsewhere `start` must be the end of a record an earlier read
    /// returned.
    ///
    /// - Complexity: O(`bytes.count`); nothing is allocated for a length before it is checked.
    public static func read(_ bytes: ArraySlice<UInt8>, at start: Int) -> Chunk {
        var chunk = Chunk(next: start, stop: .end)
        var cursor = bytes.startIndex
        if start == 0 {
            guard bytes.count >= FolderLog.fileHeaderBytes else {
                let shown = bytes.prefix(FolderLog.signature.count)
                chunk.stop = shown.elementsEqual(FolderLog.signature.prefix(shown.count)) ? .incomplete : notFolder
                return chunk
            }
            guard bytes.prefix(FolderLog.signature.count).elementsEqual(FolderLog.signature) else {
                chunk.stop = notFolder
                return chunk
            }
            let version = word(bytes, at: cursor + FolderLog.signature.count)
            guard version != 0 else {
                chunk.stop = .damaged("a folder file of version 0")
                return chunk
            }
            guard version <= FolderLog.version else {
                chunk.stop = .newerVersion(version)
                return chunk
            }
            cursor += FolderLog.fileHeaderBytes
        }
        while cursor < bytes.endIndex {
            guard bytes.endIndex - cursor >= FolderLog.recordHeaderBytes else {
                chunk.stop = .incomplete
                return chunk
            }
            let length = Int(word(bytes, at: cursor))
            let checksum = word(bytes, at: cursor + 4)
            guard length <= FolderLog.maximumRecordBytes else {
                chunk.stop = .damaged("a record of \(length) bytes, over the limit")
                return chunk
            }
            let bodyStart = cursor + FolderLog.recordHeaderBytes
            guard bytes.endIndex - bodyStart >= length else {
                chunk.stop = .incomplete
                return chunk
            }
            guard length > 0 else {
                // No record is empty. A copy that preallocates its file shows zeros where bytes are still
                // to come: a zero header is such a gap, not damage.
                chunk.stop = checksum == 0 ? .incomplete : .damaged("a record of no bytes")
                return chunk
            }
            let body = bytes[bodyStart..<bodyStart + length]
            guard FolderLog.checksum(body) == checksum else {
                chunk.stop = .damaged("a record whose checksum does not hold")
                return chunk
            }
            let record: FolderRecord
            do {
                record = try FolderRecord.decode(body: body)
            } catch {
                chunk.stop = .damaged("\(error)")
                return chunk
            }
            let offset = start + (cursor - bytes.startIndex)
            let isHeader = if case .header = record { true } else { false }
            // The header is the first record and only the first.
            guard isHeader == (offset == FolderLog.fileHeaderBytes) else {
                chunk.stop = .damaged(
                    isHeader ? "a second header record" : "a file whose first record is not its header"
                )
                return chunk
            }
            chunk.entries.append(Entry(offset: offset, record: record))
            cursor = bodyStart + length
            chunk.next = start + (cursor - bytes.startIndex)
        }
        if start == 0, chunk.entries.isEmpty { chunk.stop = .incomplete }
        return chunk
    }

    private static let notFolder = Stop.damaged("not an Inkwell folder file")

    /// The little-endian `UInt32` at `index`.
    private static func word(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt32 {
        (0..<4).reduce(0) { value, byte in value | UInt32(bytes[index + byte]) << (8 * UInt32(byte)) }
    }
}
