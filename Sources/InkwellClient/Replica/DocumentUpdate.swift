public import InkwellSync

/// One batch of changes applied to a live document, and the state it left: what a view redraws from.
///
/// A replica sends one update per batch (a local edit, a frame of packs, an accepted review), never
/// one per change, so a catch-up of thousands of changes costs one redraw.
public struct DocumentUpdate<Document: ReplicatedDocument>: Sendable {
    /// Where the changes came from.
    public enum Origin: Hashable, Sendable {
        /// Made on this device.
        case local
        /// Received, and applied as it arrived.
        case remote
        /// Received while held for review, and accepted.
        case accepted
    }

    public let room: String
    public let document: String
    public let origin: Origin
    /// The changes applied, in the order they were stored.
    public let changes: [ChangeID]
    /// What they altered, as the document type reports it.
    public let delta: Document.Delta
    /// The document after the batch.
    public let state: Document
}
