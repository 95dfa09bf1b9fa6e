import GRDB
import InkwellSync

/// The documents with changes stored outside their snapshot (`document_tail`): how many, and since
/// when. Kept as changes are appended and snapshots written, so the snapshot writer finds the tails
/// due by length or age in one read of this small table, without reading a change.
///
/// The count includes changes past a gap in the frontier, which no snapshot can take yet; it is a
/// filter, and ``Store/snapshotIfNeeded(room:document:policy:)`` decides from the changes themselves.
extension Store {
    /// A document's entry: when its oldest change outside the snapshot was stored (ms), and how many.
    struct DatedTail: Equatable {
        let since: Int64
        let changes: Int
    }

    /// Counts newly stored changes into their documents' tails; a document without one is dated `now`.
    ///
    /// - Complexity: O(d log t) for d documents in the batch.
    static func noteTails(_ db: Database, _ counts: [DocumentKey: Int], now: Int64) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO document_tail (room, document, since, changes) VALUES (?, ?, ?, ?)
                ON CONFLICT (room, document) DO UPDATE SET changes = changes + excluded.changes
                """
        )
        for (key, count) in counts { try statement.execute(arguments: [key.room, key.document, now, count]) }
    }

    static func fetchTail(_ db: Database, room: String, document: String) throws -> DatedTail? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT since, changes FROM document_tail WHERE room = ? AND document = ?"),
            arguments: [room, document]
        ).map { DatedTail(since: $0[0], changes: $0[1]) }
    }

    /// Sets a document's tail to `remaining` changes as of the read that saw `read`, plus those counted
    /// in since; dated `since` (or kept as it was when `since` is nil). No entry for an empty tail.
    static func settleTail(
        _ db: Database,
        room: String,
        document: String,
        read: DatedTail?,
        remaining: Int,
        since: Int64?,
        now: Int64
    ) throws {
        let current = try fetchTail(db, room: room, document: document)
        let counted = max((current?.changes ?? 0) - (read?.changes ?? 0), 0)
        let changes = remaining + counted
        guard changes > 0 else {
            try db.execute(
                sql: "DELETE FROM document_tail WHERE room = ? AND document = ?",
                arguments: [room, document]
            )
            return
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO document_tail (room, document, since, changes) VALUES (?, ?, ?, ?)",
            arguments: [room, document, since ?? current?.since ?? now, changes]
        )
    }

    /// The documents whose tails `policy` may find due now, by the counts kept: long enough for the
    /// length rule, or old and long enough for the age rule.
    ///
    /// - Complexity: O(t) for the t documents with a tail; reads no change.
    func documentsWithDueTails(policy: SnapshotPolicy) throws -> [DocumentKey] {
        let cutoff = configuration.milliseconds.subtractingReportingOverflow(policy.maximumAgeMilliseconds)
        return try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT room, document FROM document_tail
                    WHERE changes >= ? OR (changes >= ? AND since <= ?)
                    ORDER BY room, document
                    """,
                arguments: [
                    max(policy.tailThreshold, 1), max(policy.minimumAgedTail, 1),
                    cutoff.overflow ? Int64.min : cutoff.partialValue,
                ]
            ).map { DocumentKey(room: $0[0], document: $0[1]) }
        }
    }
}
