import GRDB
public import InkwellSync

/// How much is waiting to be uploaded: what an honest sync indicator shows (DESIGN §1, principle 5).
public struct OutboxSize: Hashable, Sendable {
    public let changes: Int
    /// The sum of the queued payloads.
    public let bytes: Int

    public init(changes: Int, bytes: Int) {
        self.changes = changes
        self.bytes = bytes
    }
}

extension Store {
    /// Queues stored changes for upload, after those already queued; queuing a queued change does nothing.
    ///
    /// The outbox uploads rows: a change whose row went with compaction (it had left the outbox, and a
    /// snapshot that left it out was refused, so it goes out again) gets its row back from its snapshot.
    ///
    /// - Throws: ``StoreError/unknownChange(_:)`` if one is held neither as a row nor in a snapshot (left
    ///   out as inert); then nothing is queued.
    /// - Complexity: O(k log n) for k ids held as rows; O(size of the room's compacted snapshots) once when
    ///   one is not.
    public func enqueue(_ ids: [ChangeID]) throws {
        try write { db in
            var compacted: [ChangeID: StoredChange]?
            for id in ids {
                if try Self.fetchRow(db, id) == nil {
                    if compacted == nil {
                        compacted = [:]
                        for room in Set(try ids.compactMap { try Self.roomHolding(db, $0) }) {
                            for snapshot in try Self.fetchCompacted(db, room: room, document: nil) {
                                for change in try snapshotChanges(snapshot) { compacted![change.id] = change }
                            }
                        }
                    }
                    guard let change = compacted?[id] else { throw StoreError.unknownChange(id) }
                    try Self.restoreRow(db, change)
                }
                try Self.enqueue(db, id)
            }
        }
    }

    /// The first `limit` queued changes, oldest first.
    ///
    /// - Complexity: O(limit log n).
    public func outbox(limit: Int = .max) throws -> [StoredChange] {
        try read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT \(StoredChange.columns) FROM outbox JOIN change USING (replica, seq)
                    ORDER BY position LIMIT ?
                    """,
                arguments: [max(limit, 0)]
            )
            var changes: [StoredChange] = []
            while let row = try rows.next() { changes.append(try StoredChange(row: row)) }
            return changes
        }
    }

    /// Removes acknowledged changes from the queue; ids not queued are ignored, since acks may repeat.
    ///
    /// With ``Configuration/compaction``, the row of a change its document's compacted snapshot already
    /// holds goes in the same transaction: it stayed only to be uploaded.
    ///
    /// - Complexity: O(k log n) for k ids, plus decoding each change whose row is removed.
    ///
    /// - Returns: how many of them were queued: taken off now, not by an earlier acknowledgement.
    @discardableResult
    public func acknowledge(_ ids: [ChangeID]) throws -> Int {
        try write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM outbox WHERE replica = ? AND seq = ?")
            var removed = 0
            for id in ids {
                guard let seq = SQLValues.integer(id.seq) else { continue }
                try statement.execute(arguments: [SQLValues.replica(id.replica), seq])
                guard db.changesCount == 1 else { continue }
                removed += 1
                if configuration.compaction { try Self.removeIfCompacted(db, id) }
            }
            return removed
        }
    }

    /// How many changes and payload bytes wait for upload.
    ///
    /// - Complexity: O(q log n) for q queued changes.
    public func outboxSize() throws -> OutboxSize {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: "SELECT count(*), coalesce(sum(length(payload)), 0) FROM outbox JOIN change USING (replica, seq)"
            )
            return OutboxSize(changes: row?[0] ?? 0, bytes: row?[1] ?? 0)
        }
    }

    static func enqueue(_ db: Database, _ id: ChangeID) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO outbox (replica, seq) VALUES (?, ?)")
            .execute(arguments: [SQLValues.replica(id.replica), SQLValues.integer(id.seq)])
    }
}
