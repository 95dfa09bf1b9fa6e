import Crypto
import Foundation
public import Hummingbird
public import InkwellStore

extension BlobStore {
    /// Streams `body` into the store as the blob named `expected`.
    ///
    /// The bytes go to a temporary file while they are hashed; reading stops at the first chunk that takes the
    /// total past `maximumBytes`. Only when the hash matches is the file synced and linked under its name in one
    /// atomic step. On any failure, including cancellation, the temporary file is removed and nothing is stored.
    /// A blob already stored is accepted without reading `body` or rewriting the file.
    ///
    /// - Throws: ``BlobStoreError`` with code ``BlobStoreError/Code/tooLarge``,
    ///   ``BlobStoreError/Code/hashMismatch`` or ``BlobStoreError/Code/fileSystem``; or whatever `body` throws.
    public func put<Body: AsyncSequence>(
        expected: BlobHash,
        body: Body,
        maximumBytes: Int
    ) async throws -> PutOutcome where Body.Element == ByteBuffer {
        if let stored = get(expected) { return .alreadyPresent(size: stored.size) }
        let temporary = directory + "/" + Self.temporaryPrefix + UUID().uuidString
        let file = try await run { try BlobFile.create(at: temporary) }
        var closed = false
        do {
            var hasher = SHA256()
            var size = 0
            for try await chunk in body {
                size += chunk.readableBytes
                guard size <= maximumBytes else { throw BlobStoreError.tooLarge(limit: maximumBytes) }
                chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                try await run { try file.append(chunk) }
            }
            let actual = BlobHash(digest: hasher.finalize())
            guard actual == expected else { throw BlobStoreError.hashMismatch(expected: expected, actual: actual) }
            try await run {
                defer { file.closeDescriptor() }
                try file.synchronize()
            }
            closed = true
            let installed = try await run { try self.install(temporary, as: expected) }
            return installed ? .created(size: size) : .alreadyPresent(size: get(expected)?.size ?? size)
        } catch {
            let wasClosed = closed
            _ = try? await run {
                if !wasClosed { file.closeDescriptor() }
                BlobFileSystem.remove(temporary)
            }
            throw error
        }
    }

    /// Links the synced `temporary` file under its blob name and syncs the directories that changed.
    private func install(_ temporary: String, as hash: BlobHash) throws -> Bool {
        let shard = shardDirectory(for: hash)
        if try BlobFileSystem.makeDirectory(shard) {
            try BlobFileSystem.synchronizeDirectory(directory)
        }
        let installed = try BlobFileSystem.install(temporary, as: path(for: hash))
        if installed {
            try BlobFileSystem.synchronizeDirectory(shard)
        }
        return installed
    }
}

extension BlobHash {
    /// The name of the bytes that produced `digest`.
    init(digest: SHA256.Digest) {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in digest {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        self.init(hex: String(decoding: hex, as: UTF8.self))!
    }
}
