import InkwellSync
import InkwellWire

extension Store {
    /// Writes a new snapshot of a document when enough of its changes lie outside the latest one, so
    /// that cold opens stay short. Returns whether it wrote one.
    ///
    /// A snapshot's cut is the room's contiguous frontier when it was taken: every change of the
    /// document inside that cut is in the snapshot. That holds because a replica's timeline is
    /// contiguous within a room (a device writes each room under its own replica id), so the frontier
    /// has no holes. Changes past the frontier stay in the tail until the gap before them fills.
    ///
    /// The snapshot holds the changes themselves, by column, whatever their type: the store needs no
    /// document type to write one.
    ///
    /// - Complexity: O(changes of the document outside the snapshot), plus rewriting the snapshot.
    @discardableResult
    public func snapshotIfNeeded(room: String, document: String, tailThreshold: Int = 1_000) throws -> Bool {
        let (contents, frontier) = try contentsAndFrontier(room: room, document: document)
        let absorbed = contents.tail.filter { frontier.vector.contains($0.id) }
        guard absorbed.count >= max(tailThreshold, 1), let first = absorbed.first else { return false }
        let previous: DocumentSnapshot
        if let stored = contents.snapshot {
            previous = try DocumentSnapshot(decoding: stored.bytes)
        } else {
            // Laid out by column in the type and schema of its first change; any other is kept whole.
            let header = try ChangeCodec.decode(first.payload).payload
            previous = DocumentSnapshot(
                room: room,
                document: document,
                type: header.type,
                schemaVersion: header.schemaVersion,
                cut: Cut(),
                changes: []
            )
        }
        let next = previous.extended(with: absorbed.map(\.payload), to: frontier)
        try writeSnapshot(
            StoredSnapshot(
                room: room,
                document: document,
                cut: next.cut,
                schemaVersion: DocumentSnapshot.schemaVersion,
                bytes: next.encoded()
            )
        )
        return true
    }
}

/// Keeps snapshots fresh in the background: after each commit, documents whose tail has grown past
/// the threshold get a new snapshot, away from the path of the edit that grew them.
public struct SnapshotWriter: Sendable {
    public let store: Store
    public let tailThreshold: Int

    public init(store: Store, tailThreshold: Int = 1_000) {
        self.store = store
        self.tailThreshold = tailThreshold
    }

    /// Runs until the task is cancelled. A failed snapshot loses nothing (the changes stay stored)
    /// and is reported to `failed`, then tried again after the next commit to that document.
    public func run(failed: @Sendable (DocumentKey, any Error) -> Void = { _, _ in }) async {
        // Reading a document's tail costs O(tail): look again only after a tenth of the threshold of commits.
        let checkEvery = max(tailThreshold / 10, 1)
        var commitsSinceCheck: [DocumentKey: Int] = [:]
        for await notification in store.notifications() {
            for key in notification.documents.sorted(by: { ($0.room, $0.document) < ($1.room, $1.document) }) {
                commitsSinceCheck[key, default: 0] += 1
                guard commitsSinceCheck[key]! >= checkEvery else { continue }
                commitsSinceCheck[key] = 0
                do {
                    try store.snapshotIfNeeded(room: key.room, document: key.document, tailThreshold: tailThreshold)
                } catch {
                    failed(key, error)
                }
            }
        }
    }
}
