import Dispatch
import Foundation
public import InkwellStore

/// Blobs on disk, named by the SHA-256 of their bytes (DESIGN §5): `<directory>/<first 2 hex>/<64 hex>`.
///
/// A blob appears under its name only once all its bytes are written, checked and synced, so a reader never sees
/// part of one. Uploads stream into hidden temporary files in `directory`, which ``init(directory:)`` sweeps away
/// after a crash; give each store a directory of its own.
public final class BlobStore: Sendable {
    /// A stored blob.
    public struct Blob: Hashable, Sendable {
        public let hash: BlobHash
        /// Where the bytes are; the file never changes while it exists.
        public let path: String
        public let size: Int
    }

    /// What ``put(expected:body:maximumBytes:)`` did.
    public enum PutOutcome: Hashable, Sendable {
        /// The blob is new and now stored.
        case created(size: Int)
        /// The blob was already stored; the file was left as it was.
        case alreadyPresent(size: Int)
    }

    public let directory: String
    /// Blocking file calls run here rather than on the concurrency pool.
    let queue = DispatchQueue(label: "inkwell.blob-store", qos: .utility, attributes: .concurrent)

    static let temporaryPrefix = ".upload-"

    /// Opens the store in `directory`, creating it if needed, and removes uploads a crash left unfinished.
    public init(directory: String) throws {
        self.directory = directory
        let files = FileManager.default
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: directory) where name.hasPrefix(Self.temporaryPrefix) {
            BlobFileSystem.remove(directory + "/" + name)
        }
    }

    /// The blob named `hash`, or `nil` if it is not stored.
    public func get(_ hash: BlobHash) -> Blob? {
        let path = path(for: hash)
        return BlobFileSystem.regularFileSize(path).map { Blob(hash: hash, path: path, size: $0) }
    }

    /// Where the blob named `hash` is, or would be, stored.
    public func path(for hash: BlobHash) -> String {
        shardDirectory(for: hash) + "/" + hash.hex
    }

    func shardDirectory(for hash: BlobHash) -> String {
        directory + "/" + hash.hex.prefix(2)
    }

    /// Runs blocking `work` on ``queue``.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
