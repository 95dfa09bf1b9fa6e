public import InkwellStore

/// Why ``BlobStore`` refused or failed to store a blob. A refused upload leaves nothing on disk.
///
/// Descriptions are plain words, safe to log: sizes, hashes and system error numbers, never paths or bytes.
public struct BlobStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is, for callers that map it to a status code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case tooLarge
            case hashMismatch
            case fileSystem
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The body is longer than the caller's limit.
        public static let tooLarge = Code(.tooLarge)
        /// The body does not hash to the name it was uploaded under.
        public static let hashMismatch = Code(.hashMismatch)
        /// The file system refused an operation (disk full, permissions, …).
        public static let fileSystem = Code(.fileSystem)

        public var description: String {
            switch base {
            case .tooLarge: "tooLarge"
            case .hashMismatch: "hashMismatch"
            case .fileSystem: "fileSystem"
            }
        }
    }

    public let code: Code
    private let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The body went past `limit` bytes; reading stopped there.
    public static func tooLarge(limit: Int) -> BlobStoreError {
        BlobStoreError(.tooLarge, "blob is larger than the limit of \(limit) bytes")
    }

    /// The bytes hash to `actual`, not to the `expected` name.
    public static func hashMismatch(expected: BlobHash, actual: BlobHash) -> BlobStoreError {
        BlobStoreError(.hashMismatch, "blob bytes hash to \(actual), not to \(expected)")
    }

    /// A system call failed with `errno`.
    static func fileSystem(_ operation: String, errno: Int32) -> BlobStoreError {
        BlobStoreError(.fileSystem, "\(operation) failed with errno \(errno)")
    }

    public var description: String { detail }
}
