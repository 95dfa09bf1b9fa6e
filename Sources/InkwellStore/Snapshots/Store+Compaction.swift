import GRDB
import InkwellSync
import InkwellWire

/// Compaction: once a snapshot the store wrote holds a change, its row goes, so the device keeps each
/// change once. Rows still in the outbox stay until acknowledged (the outbox uploads rows), and go
/// then if their snapshot holds them; the next snapshot takes any that are left.
extension Store {
    /// Whether a snapshot gives back the row's change exactly as the row holds it: the same id, stamp,
    /// document, type, schema and bytes. Only such rows are removed.
    ///
    /// - Complexity: O(size of the change).
    static func isReproducible(_ row: StoredChange) -> Bool {
        guard let decoded = try? ChangeCodec.decode(row.payload) else { return false }
        return StoredChange(decoded, room: row.room, encoded: row.payload).isSameChange(as: row)
    }

    /// Removes the rows of `ids` that the outbox does not hold.
    ///
    /// - Complexity: O(k log n) for k ids.
    static func removeRows(_ db: Database, _ ids: [ChangeID]) throws {
        let statement = try db.cachedStatement(
            sql: """
                DELETE FROM change WHERE replica = ?1 AND seq = ?2
                AND NOT EXISTS (SELECT 1 FROM outbox WHERE replica = ?1 AND seq = ?2)
                """
        )
        for id in ids {
            guard let seq = SQLValues.integer(id.seq) else { continue }
            try statement.execute(arguments: [SQLValues.replica(id.replica), seq])
        }
    }

    /// Removes the row of `id`, just taken off the outbox, if its document's compacted snapshot holds it.
    ///
    /// - Complexity: O(log n + size of the change).
    static func removeIfCompacted(_ db: Database, _ id: ChangeID) throws {
        guard let row = try fetchRow(db, id), let seq = SQLValues.integer(id.seq) else { return }
        let covered = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT f.seq FROM snapshot AS s JOIN snapshot_frontier AS f ON f.snapshot_id = s.id
                    WHERE s.room = ? AND s.document = ? AND s.compacted AND f.replica = ?
                    """
            ),
            arguments: [row.room, row.document, SQLValues.replica(id.replica)]
        )
        guard let covered, covered >= seq, isReproducible(row) else { return }
        try removeRows(db, [id])
    }

    /// Whether `change` is held only inside its document's snapshot, its row removed, so appending it
    /// again must skip it.
    ///
    /// Such a change is recognised by its id: inside its room's frontier, inside its document's
    /// snapshot, and without a row. Its bytes are not at hand to compare, so a replica that reused the
    /// id for other content within the same document goes unnoticed here (a held row would catch it).
    ///
    /// - Throws: ``StoreError/conflictingDuplicate(_:)`` when the id is held for another room, or in
    ///   the room but not inside the change's document's snapshot.
    /// - Complexity: O(log n).
    static func isCompacted(_ db: Database, _ change: StoredChange) throws -> Bool {
        // Past every frontier: if held at all, it is a row, and the insert sees it.
        guard let room = try roomHolding(db, change.id), let seq = SQLValues.integer(change.id.seq) else {
            return false
        }
        let replica = SQLValues.replica(change.id.replica)
        let hasRow = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM change WHERE replica = ? AND seq = ?)"),
            arguments: [replica, seq]
        )
        if hasRow == true { return false }
        let covered = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT f.seq FROM snapshot AS s JOIN snapshot_frontier AS f ON f.snapshot_id = s.id
                    WHERE s.room = ? AND s.document = ? AND f.replica = ?
                    """
            ),
            arguments: [room, change.document, replica]
        )
        guard room == change.room, let covered, covered >= seq else {
            throw StoreError.conflictingDuplicate(change.id)
        }
        return true
    }
}
