import Crypto
import Foundation
public import Hummingbird
public import InkwellStore

extension BlobStore {
    /// An upload whose bytes are written, checked against their name and synced, in a temporary file
    /// that is not yet a blob: ``install(_:)`` makes it one, ``discard(_:)`` removes it.
    public struct Received: Sendable {
        public let hash: BlobHash
        public let size: Int
        fileprivate let temporary: String
    }

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
        let received = try await receive(expected: expected, body: body, maximumBytes: maximumBytes)
        let installed = try await install(received)
        return installed ? .created(size: received.size) : .alreadyPresent(size: get(expected)?.size ?? received.size)
    }

    /// Streams `body` into a temporary file while hashing it, as ``put(expected:body:maximumBytes:)`` does,
    /// and stops there, whether or not the blob is stored already: the caller decides whether the checked
    /// bytes become a blob (``install(_:)``) or not (``discard(_:)``).
    ///
    /// On any failure, including cancellation, the temporary file is removed.
    ///
    /// - Throws: ``BlobStoreError`` with code ``BlobStoreError/Code/tooLarge``,
    ///   ``BlobStoreError/Code/hashMismatch`` or ``BlobStoreError/Code/fileSystem``; or whatever `body` throws.
    public func receive<Body: AsyncSequence>(
        expected: BlobHash,
        body: Body,
        maximumBytes: Int
    ) async throws -> Received where Body.Element == ByteBuffer {
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
            // A SHA-256 digest is always 32 bytes.
            let actual = BlobHash(digest: hasher.finalize())!
            guard actual == expected else { throw BlobStoreError.hashMismatch(expected: expected, actual: actual) }
            try await run {
                defer { file.closeDescriptor() }
                try file.synchronize()
            }
            closed = true
            return Received(hash: expected, size: size, temporary: temporary)
        } catch {
            let wasClosed = closed
            _ = try? await run {
                if !wasClosed { file.closeDescriptor() }
                BlobFileSystem.remove(temporary)
            }
            throw error
        }
    }

    /// Makes a received upload the blob of its name: `true` if it is new, `false` if the blob was stored
    /// already (the file is left as it was). The temporary file is gone either way, even when this throws.
    ///
    /// - Throws: ``BlobStoreError`` with code ``BlobStoreError/Code/fileSystem``.
    public func install(_ received: Received) async throws -> Bool {
        do {
            return try await run { try self.install(received.temporary, as: received.hash) }
        } catch {
            await discard(received)
            throw error
        }
    }

    /// Removes a received upload that is not to become a blob.
    public func discard(_ received: Received) async {
        _ = try? await run { BlobFileSystem.remove(received.temporary) }
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
