import Foundation
import GRDB

extension Store {
    /// Inserts or replaces the blob's metadata.
    ///
    /// The store does not hash the bytes: the caller checks them against ``BlobRecord/hash`` before
    /// marking a blob `present`.
    ///
    /// - Throws: ``StoreError/invalidBlob(_:)`` when the record contradicts itself.
    public func putBlob(_ record: BlobRecord) throws {
        try validate(record)
        var path: String?
        var bytes: Data?
        switch record.content {
        case .none: break
        case .file(let file): path = file
        case .inline(let inline): bytes = Data(inline)
        }
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO blob (hash, size, mime_type, state, path, bytes)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [record.hash.hex, Int64(record.size), record.mimeType, record.state.rawValue, path, bytes]
            )
        }
    }

    /// The blob's metadata, if known.
    public func blob(_ hash: BlobHash) throws -> BlobRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(blobColumns) FROM blob WHERE hash = ?", arguments: [hash.hex])
                .map(Self.blobRecord)
        }
    }

    /// Every blob in `state`, by hash: for example the ones still to download.
    public func blobs(state: BlobRecord.State) throws -> [BlobRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(blobColumns) FROM blob WHERE state = ? ORDER BY hash",
                arguments: [state.rawValue]
            )
            .map(Self.blobRecord)
        }
    }

    /// Forgets the blob's metadata (and inline bytes); a file it named is the caller's to delete.
    public func removeBlob(_ hash: BlobHash) throws {
        try write { db in try db.execute(sql: "DELETE FROM blob WHERE hash = ?", arguments: [hash.hex]) }
    }

    private var blobColumns: String { "hash, size, mime_type, state, path, bytes" }

    private func validate(_ record: BlobRecord) throws {
        guard Int64(exactly: record.size) != nil else { throw StoreError.invalidBlob("size too large") }
        guard !record.mimeType.isEmpty else { throw StoreError.invalidBlob("empty mime type") }
        switch record.content {
        case .none:
            guard record.state != .present else { throw StoreError.invalidBlob("present blob without content") }
        case .file(let path):
            guard !path.isEmpty else { throw StoreError.invalidBlob("empty path") }
        case .inline(let bytes):
            guard bytes.count <= configuration.maximumValueBytes else {
                throw StoreError.payloadTooLarge(nil, size: bytes.count, limit: configuration.maximumValueBytes)
            }
            guard UInt64(bytes.count) == record.size else { throw StoreError.invalidBlob("size differs from bytes") }
        }
    }

    private static func blobRecord(_ row: Row) throws -> BlobRecord {
        guard let hash = BlobHash(hex: row[0] as String), let size = UInt64(exactly: row[1] as Int64),
            let state = BlobRecord.State(rawValue: row[3])
        else { throw StoreError.corruptRow("blob") }
        let content: BlobRecord.Content =
            if let path = row[4] as String? {
                .file(path: path)
            } else if let bytes = row[5] as Data? {
                .inline([UInt8](bytes))
            } else {
                .none
            }
        return BlobRecord(hash: hash, size: size, mimeType: row[2], state: state, content: content)
    }
}
