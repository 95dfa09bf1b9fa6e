public import InkwellStore

extension SyncClient {
    /// A blob's bytes from the store, downloaded into it first when it lacks them: what an app shows an
    /// image from, and still shows offline once it came. Opened with the room's key in an encrypted room,
    /// and checked against the name before anything is kept (``downloadBlob(_:room:)``).
    ///
    /// The store marks the blob `downloading` while it comes, and `missing` again if it fails, so an app
    /// can list what is still to fetch (``Store/blobs(state:)``).
    ///
    /// - Throws: what ``downloadBlob(_:room:)`` throws; ``StoreError`` when the store cannot be written.
    public nonisolated func cachedBlob(_ hash: BlobHash, room: String, mimeType: String) async throws -> [UInt8] {
        if let record = try store.blob(hash), record.state == .present, case .inline(let bytes) = record.content {
            return bytes
        }
        try store.putBlob(BlobRecord(hash: hash, size: 0, mimeType: mimeType, state: .downloading))
        let bytes: [UInt8]
        do {
            bytes = try await downloadBlob(hash, room: room)
        } catch {
            try? store.putBlob(BlobRecord(hash: hash, size: 0, mimeType: mimeType, state: .missing))
            throw error
        }
        try store.putBlob(
            BlobRecord(
                hash: hash,
                size: UInt64(bytes.count),
                mimeType: mimeType,
                state: .present,
                content: .inline(bytes)
            )
        )
        return bytes
    }

    /// The bytes the store holds for a blob, without going online: `nil` until ``cachedBlob(_:room:mimeType:)``
    /// fetched them.
    public nonisolated func storedBlob(_ hash: BlobHash) throws -> [UInt8]? {
        guard let record = try store.blob(hash), record.state == .present, case .inline(let bytes) = record.content
        else { return nil }
        return bytes
    }
}
