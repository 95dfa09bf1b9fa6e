public import InkwellSync

/// What one ``Store/append(_:enqueue:)`` stored.
public struct AppendResult: Hashable, Sendable {
    /// The changes that were new, in the order given.
    public let inserted: [ChangeID]
    /// The changes that were already stored with the same content and were skipped.
    public let duplicates: [ChangeID]

    public init(inserted: [ChangeID], duplicates: [ChangeID]) {
        self.inserted = inserted
        self.duplicates = duplicates
    }
}
