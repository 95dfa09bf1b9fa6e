/// The live state of one document: what a replica holds in memory and keeps up to date as changes
/// are made here and arrive from elsewhere.
///
/// The state must be a pure function of the *set* of changes applied: any order, any repeat, any
/// batching gives the same state (DESIGN.md §1). A change of another document, or one applied
/// before, does nothing.
public protocol ReplicatedDocument: Sendable {
    associatedtype Edit: DocumentEdit
    /// What applying changes altered, for a view to redraw only that.
    associatedtype Delta: Sendable

    /// The empty document `document`.
    init(document: String)

    /// Applies a batch of changes of this document.
    ///
    /// An array, not any sequence: called through the protocol, the type's code runs specialised for
    /// it, which a generic sequence would prevent on every change of a cold open.
    ///
    /// - Complexity: O(size of the changes) for a type that keeps to DESIGN.md §3.
    mutating func apply(contentsOf changes: [Change<Edit>]) -> Delta

    /// A fingerprint of the whole state: equal on every replica that applied the same changes.
    var fingerprint: String { get }

    /// The changes among `changes` inside `cut` that no longer matter: a snapshot may leave them out and
    /// let its cut stand for them, and the document, built from the others, shows the same now and after
    /// anything still to come.
    ///
    /// `cut` is a prefix of every timeline, all of which this document has applied (or an earlier
    /// compaction dropped as inert); `changes` are changes of this document that it has applied.
    ///
    /// A type without such a rule keeps the default: none.
    func inertChanges(among changes: [Change<Edit>], through cut: VersionVector) -> [ChangeID]
}

extension ReplicatedDocument {
    public func inertChanges(among changes: [Change<Edit>], through cut: VersionVector) -> [ChangeID] { [] }
}
