import GRDB
import InkwellSync
import InkwellWire

extension Store {
    /// Writes a new snapshot of a document when its tail is due by `policy` (long enough, or old and
    /// not tiny), so that cold opens stay short; with ``Configuration/compaction`` it removes, in the
    /// same transaction, the change rows the new snapshot holds. Returns whether it wrote one.
    ///
    /// A snapshot's cut is the room's contiguous frontier when it was taken: every change of the
    /// document inside that cut is in the snapshot. That holds because a replica's timeline is
    /// contiguous within a room (a device writes each room under its own replica id), so the frontier
    /// has no holes. Changes past the frontier stay in the tail until the gap before them fills.
    ///
    /// The snapshot holds the changes themselves, by column, whatever their type: the store needs no
    /// document type to write one. It is cut from one read and written only if no other snapshot of
    /// the document was written since that read; else this returns `false` and changes nothing.
    ///
    /// - Complexity: O(changes of the document held as rows), plus rewriting the snapshot when due.
    @discardableResult
    public func snapshotIfNeeded(
        room: String,
        document: String,
        policy: SnapshotPolicy = SnapshotPolicy()
    ) throws -> Bool {
        let source = try read { db in try SnapshotSource(db, room: room, document: document) }
        let now = configuration.milliseconds
        let waited = source.dated.map { Duration.milliseconds(max(now - $0.since, 0)) }
        guard policy.isDue(length: source.absorbed.count, waited: waited), let first = source.absorbed.first else {
            try recount(source, now: now)
            return false
        }
        let previous: DocumentSnapshot
        if let stored = source.snapshot {
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
        let next = previous.extended(with: source.absorbed.map(\.payload), to: source.frontier)
        let snapshot = StoredSnapshot(
            room: room,
            document: document,
            cut: next.cut,
            schemaVersion: DocumentSnapshot.schemaVersion,
            bytes: next.encoded()
        )
        try validate(snapshot)
        let removable = configuration.compaction ? source.removable(previous: previous) : []
        return try write { db in
            let stored = try Self.fetchSnapshotCut(db, room: room, document: document)
            guard stored?.cut == source.snapshot?.cut else { return false }
            try Self.replaceSnapshot(
                db,
                with: snapshot,
                compacted: configuration.compaction || (stored?.compacted ?? false)
            )
            try Self.removeRows(db, removable)
            try Self.settleTail(
                db,
                room: room,
                document: document,
                read: source.dated,
                remaining: source.tail.count - source.absorbed.count,
                since: now,
                now: now
            )
            return true
        }
    }

    /// Keeps the count the writer's sweep filters on true to the rows just read, unless a snapshot was
    /// written since.
    private func recount(_ source: SnapshotSource, now: Int64) throws {
        guard (source.dated?.changes ?? 0) != source.tail.count else { return }
        try write { db in
            let stored = try Self.fetchSnapshotCut(db, room: source.room, document: source.document)
            guard stored?.cut == source.snapshot?.cut else { return }
            try Self.settleTail(
                db,
                room: source.room,
                document: source.document,
                read: source.dated,
                remaining: source.tail.count,
                since: nil,
                now: now
            )
        }
    }
}

/// What a snapshot is cut from, read in one transaction: the document's snapshot and rows, the room's
/// contiguous frontier and the document's dated tail. Read apart, a change committed in between could
/// fall inside the new cut and outside the snapshot, and be lost with compaction.
private struct SnapshotSource {
    let room: String
    let document: String
    let snapshot: StoredSnapshot?
    /// Whether the stored snapshot is compacted.
    let compacted: Bool
    let frontier: Cut
    /// Every row of the document, in total order.
    let rows: [StoredChange]
    let dated: Store.DatedTail?
    /// The rows outside the snapshot, and those of them inside the frontier, which a new one takes.
    let tail: [StoredChange]
    let absorbed: [StoredChange]

    init(_ db: Database, room: String, document: String) throws {
        self.room = room
        self.document = document
        snapshot = try Store.fetchSnapshot(db, room: room, document: document)
        compacted = try Store.fetchSnapshotCut(db, room: room, document: document)?.compacted ?? false
        let frontier = try Store.fetchFrontier(db, room: room)
        let rows = try Store.fetchRows(db, room: room, document: document, notIn: VersionVector())
        dated = try Store.fetchTail(db, room: room, document: document)
        let cut = snapshot?.cut.vector ?? VersionVector()
        let tail = rows.filter { !cut.contains($0.id) }
        absorbed = tail.filter { frontier.vector.contains($0.id) }
        (self.frontier, self.rows, self.tail) = (frontier, rows, tail)
    }

    /// The rows a new snapshot extended from `previous` lets go: those it absorbed, and those an earlier
    /// snapshot left (written with compaction off, or by the app, or kept for the outbox) that it
    /// holds; each only if the snapshot gives its change back exactly.
    ///
    /// - Complexity: O(rows); plus O(size of `previous`) when it was not compacted and rows inside its
    ///   cut remain, to check that it holds them.
    func removable(previous: DocumentSnapshot) -> [ChangeID] {
        let cut = snapshot?.cut.vector ?? VersionVector()
        let lingering = rows.filter { cut.contains($0.id) }
        // A compacted snapshot holds every change of its document inside its cut: the store wrote it so.
        let held = lingering.isEmpty || compacted ? nil : previous.changeIDs
        return (absorbed + lingering.filter { held?.contains($0.id) ?? true }).filter(Store.isReproducible).map(\.id)
    }
}
