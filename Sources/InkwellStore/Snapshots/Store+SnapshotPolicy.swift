import GRDB
public import InkwellSync
import InkwellWire

extension Store {
    /// Writes a new snapshot of a document when its tail is due by `policy` (long enough, or old and
    /// not tiny), so that cold opens stay short; with ``Configuration/compaction`` it removes, in the
    /// same transaction, the change rows the new snapshot holds or leaves out. Returns whether it wrote one.
    ///
    /// A snapshot's cut is the room's frontier when it was taken: every change of the document inside
    /// that cut is in the snapshot, or stopped mattering. That holds because a replica's timeline is
    /// contiguous within a room (a device writes each room under its own replica id), and the frontier
    /// moves only over changes held, compacted, or stood for by a room snapshot taken (``standFor(_:room:own:)``).
    /// Changes past the frontier stay in the tail until the gap before them fills. A change inside the
    /// cut that came late (a row the snapshot does not hold) is taken in.
    ///
    /// The snapshot holds the changes themselves, by column, whatever their type: the store needs no
    /// document type to write one. Given `types`, it leaves out the changes their rules call inert
    /// (``DocumentTypes/inertChanges(among:through:)``), its cut standing for them: the device's store
    /// then follows what still matters on the board, not its history. It is cut from one read and
    /// written only if no other snapshot of the document was written since that read; else this returns
    /// `false` and changes nothing.
    ///
    /// - Complexity: O(changes of the document held as rows), plus rewriting the snapshot when due, and
    ///   with `types`, building the document from it.
    @discardableResult
    public func snapshotIfNeeded(
        room: String,
        document: String,
        policy: SnapshotPolicy = SnapshotPolicy(),
        types: DocumentTypes? = nil
    ) throws -> Bool {
        let source = try read { db in try SnapshotSource(db, room: room, document: document) }
        let now = configuration.milliseconds
        let waited = source.dated.map { Duration.milliseconds(max(now - $0.since, 0)) }
        guard policy.isDue(length: source.absorbed.count, waited: waited), let first = source.absorbed.first else {
            try recount(source, now: now)
            return false
        }
        let previous: DocumentSnapshot
        if let cut = source.stored?.cut {
            // Read only now that it is due; gone since, another writer got there first.
            let stored = try read { db in try Self.fetchSnapshot(db, room: room, document: document) }
            guard let stored, stored.cut == cut else { return false }
            previous = try decodeSnapshot(stored.bytes)
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
        let late = try lateRows(source, previous: previous)
        var next = previous.extended(with: (source.absorbed + late.taken).map(\.payload), to: source.frontier)
        // Within the cut, less this device's changes not yet acknowledged: a room snapshot it sends later
        // stands for what came through a position of the server's log, and must stand for all of this.
        var pruned = source.prunedThrough
        if let types {
            let within = try read { db in try Self.acknowledgedPart(db, of: next.cut.vector, room: room) }
            let changes = next.changes.compactMap { try? ChangeCodec.decode($0) }
            next = next.leavingOut(types.inertChanges(among: changes, through: within))
            pruned.merge(within)
        }
        let encoded = next.encodedWithStateSize()
        // Never a snapshot this store could not read back: it may become the only copy of its changes.
        guard encoded.stateSize <= configuration.maximumValueBytes else {
            throw StoreError.payloadTooLarge(nil, size: encoded.stateSize, limit: configuration.maximumValueBytes)
        }
        let snapshot = StoredSnapshot(
            room: room,
            document: document,
            cut: next.cut,
            schemaVersion: DocumentSnapshot.schemaVersion,
            bytes: encoded.bytes,
            prunedThrough: pruned
        )
        try validate(snapshot)
        let removable =
            configuration.compaction ? (source.absorbed + late.lingering).filter(Self.isReproducible).map(\.id) : []
        return try write { db in
            let stored = try Self.fetchSnapshotCut(db, room: room, document: document)
            guard stored?.cut == source.stored?.cut else { return false }
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

    /// The rows inside the stored snapshot's cut (`lingering`: kept for the outbox, written with
    /// compaction off or by the app, or come late), and those of them the snapshot does not hold
    /// (`taken`), which the next one takes in. All of them go with the next snapshot, which holds them
    /// or leaves them out as inert.
    ///
    /// The rows inside the previous cut are read apart from the source: none can come since but late
    /// ones, which the next snapshot takes in (or the one after it).
    ///
    /// - Complexity: O(rows of the document); plus O(size of `previous`) when rows inside its cut remain,
    ///   to read which changes it holds.
    private func lateRows(
        _ source: SnapshotSource,
        previous: DocumentSnapshot
    ) throws -> (lingering: [StoredChange], taken: [StoredChange]) {
        guard let stored = source.stored else { return ([], []) }
        let lingering = try read { db in
            try Self.fetchRows(db, room: source.room, document: source.document, notIn: stored.cut.vector, inside: true)
        }
        guard !lingering.isEmpty else { return ([], []) }
        let held = previous.changeIDs
        return (lingering, lingering.filter { !held.contains($0.id) })
    }

    /// Keeps the count the writer's sweep filters on true to the rows just read, unless a snapshot was
    /// written since.
    private func recount(_ source: SnapshotSource, now: Int64) throws {
        guard (source.dated?.changes ?? 0) != source.tail.count else { return }
        try write { db in
            let stored = try Self.fetchSnapshotCut(db, room: source.room, document: source.document)
            guard stored?.cut == source.stored?.cut else { return }
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

/// What a snapshot is cut from, read in one transaction: the document's snapshot cut and rows outside
/// it, the room's contiguous frontier and the document's dated tail. Read apart, a change committed in
/// between could fall inside the new cut and outside the snapshot, and be lost with compaction.
private struct SnapshotSource {
    let room: String
    let document: String
    /// The stored snapshot's cut, and whether it is compacted (its bytes are read only when due).
    let stored: (cut: Cut, compacted: Bool)?
    /// The cut within which the stored snapshot left out what stopped mattering: the next one keeps it.
    let prunedThrough: VersionVector
    let frontier: Cut
    let dated: Store.DatedTail?
    /// The rows outside the snapshot, in total order, and those of them inside the frontier, which a
    /// new one takes.
    let tail: [StoredChange]
    let absorbed: [StoredChange]

    init(_ db: Database, room: String, document: String) throws {
        self.room = room
        self.document = document
        let stored = try Store.fetchSnapshotCut(db, room: room, document: document)
        let frontier = try Store.fetchFrontier(db, room: room)
        let tail = try Store.fetchRows(
            db,
            room: room,
            document: document,
            notIn: stored?.cut.vector ?? VersionVector()
        )
        dated = try Store.fetchTail(db, room: room, document: document)
        absorbed = tail.filter { frontier.vector.contains($0.id) }
        prunedThrough = try Store.fetchPrunedThrough(db, room: room, document: document)
        (self.stored, self.frontier, self.tail) = (stored, frontier, tail)
    }
}
