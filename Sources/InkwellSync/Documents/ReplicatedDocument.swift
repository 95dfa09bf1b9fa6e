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
}
