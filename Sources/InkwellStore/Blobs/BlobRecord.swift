/// What the store knows about one blob: how big it is, whether it is here yet, and where.
///
/// Blobs travel separately from changes and lazily, so a board can name an image whose bytes are still
/// `missing` or `downloading`.
public struct BlobRecord: Hashable, Sendable {
    public enum State: String, Hashable, Sendable, CaseIterable {
        case missing
        case downloading
        case present
    }

    /// Where the bytes are kept once here.
    public enum Content: Hashable, Sendable {
        case none
        /// In a file of the app's (the store does not manage the file).
        case file(path: String)
        /// In the store itself: for small blobs.
        case inline([UInt8])
    }

    public let hash: BlobHash
    public var size: UInt64
    public var mimeType: String
    public var state: State
    public var content: Content

    public init(hash: BlobHash, size: UInt64, mimeType: String, state: State = .missing, content: Content = .none) {
        self.hash = hash
        self.size = size
        self.mimeType = mimeType
        self.state = state
        self.content = content
    }
}
