public import InkwellSync

/// What one committed transaction changed, so that a view redraws once per batch, not once per change.
///
/// Sent only after the commit, never for a transaction that rolled back or stored nothing new.
public struct StoreNotification: Hashable, Sendable {
    /// The changes that were new, in the order they were appended.
    public let changes: [ChangeID]
    /// The boards those changes belong to.
    public let documents: Set<DocumentKey>
    /// The entities those changes name (see ``StoredChange/entities``).
    public let entities: Set<String>

    /// The rooms those changes belong to.
    public var rooms: Set<String> { Set(documents.map(\.room)) }
}
