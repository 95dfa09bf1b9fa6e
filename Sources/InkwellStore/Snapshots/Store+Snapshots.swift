import Foundation
import GRDB
public import InkwellSync

extension Store {
    /// Keeps `snapshot` as its document's snapshot, replacing the previous one in the same transaction.
    ///
    /// The store keeps the change rows inside a snapshot written here. Over a snapshot the store
    /// compacted (see ``Configuration/compaction``), `snapshot` must hold every change of its document
    /// inside its cut, as a ``DocumentSnapshot`` extended from the stored one does: it is their only copy.
    ///
    /// - Throws: ``StoreError/snapshotNotNewer`` if the stored snapshot has changes the new one lacks
    ///   (join the states first); the stored one is then kept.
    public func writeSnapshot(_ snapshot: StoredSnapshot) throws {
        try validate(snapshot)
        try write { db in
            let stored = try Self.fetchSnapshotCut(db, room: snapshot.room, document: snapshot.document)
            if let stored, !snapshot.cut.vector.covers(stored.cut.vector) {
                throw StoreError.snapshotNotNewer
            }
            try Self.replaceSnapshot(db, with: snapshot, compacted: stored?.compacted ?? false)
        }
    }

    /// The document's snapshot, if one was written.
    public func latestSnapshot(room: String, document: String) throws -> StoredSnapshot? {
        try read { db in try Self.fetchSnapshot(db, room: room, document: document) }
    }

    /// The document's snapshot and the changes held as rows that it may lack, read together so they agree.
    ///
    /// Every change removed by compaction lies inside the snapshot's cut, so the tail is read from rows:
    /// those outside the cut and, over a compacted snapshot, those inside it that came late (a change the
    /// snapshot stood for without holding it; applying one it holds again changes nothing). Rows inside it
    /// that wait in the outbox are not read: the snapshot holds this device's changes until acknowledged.
    ///
    /// - Complexity: O(log n + m) for m changes of the document held as rows.
    public func coldOpen(room: String, document: String) throws -> DocumentContents {
        try read { db in
            let snapshot = try Self.fetchSnapshot(db, room: room, document: document)
            let vector = snapshot?.cut.vector ?? VersionVector()
            var tail = try Self.fetchRows(db, room: room, document: document, notIn: vector)
            if snapshot != nil, try Self.fetchSnapshotCut(db, room: room, document: document)?.compacted == true {
                let inside = try Self.fetchRows(
                    db,
                    room: room,
                    document: document,
                    notIn: vector,
                    inside: true,
                    notQueued: true
                )
                if !inside.isEmpty {
                    tail += inside
                    tail.sort { $0.position < $1.position }
                }
            }
            return DocumentContents(snapshot: snapshot, tail: tail)
        }
    }

    func validate(_ snapshot: StoredSnapshot) throws {
        guard !snapshot.room.isEmpty, !snapshot.document.isEmpty else { throw StoreError.emptyName() }
        guard snapshot.bytes.count <= configuration.maximumValueBytes else {
            throw StoreError.payloadTooLarge(nil, size: snapshot.bytes.count, limit: configuration.maximumValueBytes)
        }
        guard snapshot.cut.vector.entries.values.allSatisfy({ SQLValues.integer($0) != nil }) else {
            throw StoreError.outOfRange()
        }
    }

    /// Writes `snapshot` in place of its document's stored one, if any.
    static func replaceSnapshot(_ db: Database, with snapshot: StoredSnapshot, compacted: Bool) throws {
        try db.execute(
            sql: "DELETE FROM snapshot WHERE room = ? AND document = ?",
            arguments: [snapshot.room, snapshot.document]
        )
        try db.execute(
            sql: "INSERT INTO snapshot (room, document, schema_version, bytes, compacted) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                snapshot.room, snapshot.document, Int64(snapshot.schemaVersion), Data(snapshot.bytes), compacted,
            ]
        )
        let id = db.lastInsertedRowID
        let frontier = try db.cachedStatement(
            sql: "INSERT INTO snapshot_frontier (snapshot_id, replica, seq, stamp) VALUES (?, ?, ?, ?)"
        )
        for (replica, seq) in snapshot.cut.vector.entries {
            let stamp = snapshot.cut.stamps[replica] ?? .zero
            try frontier.execute(arguments: [id, SQLValues.replica(replica), Int64(seq), SQLValues.stamp(stamp)])
        }
        let pruned = try db.cachedStatement(
            sql: "INSERT INTO snapshot_pruned (snapshot_id, replica, seq) VALUES (?, ?, ?)"
        )
        for (replica, seq) in snapshot.prunedThrough.entries where seq >= 1 {
            try pruned.execute(arguments: [id, SQLValues.replica(replica), SQLValues.integer(seq) ?? .max])
        }
    }

    /// The furthest cut within which the room's snapshots on this device left out changes that stopped
    /// mattering: a room snapshot this device sends must stand for all of it, or it would leave out
    /// changes that are inert only given changes it does not stand for.
    ///
    /// - Complexity: O(d·r) for d documents of the room with a snapshot and r replicas.
    public func prunedThrough(room: String) throws -> VersionVector {
        try read { db in try Self.fetchPrunedThrough(db, room: room, document: nil) }
    }

    /// The furthest of the cuts within which the snapshots of a room (or of one of its documents) left
    /// out changes that stopped mattering.
    static func fetchPrunedThrough(_ db: Database, room: String, document: String?) throws -> VersionVector {
        var sql = """
            SELECT p.replica, max(p.seq) FROM snapshot AS s JOIN snapshot_pruned AS p ON p.snapshot_id = s.id
            WHERE s.room = ?
            """
        var arguments: StatementArguments = [room]
        if let document {
            sql += " AND s.document = ?"
            arguments += [document]
        }
        var cut = VersionVector()
        for row in try Row.fetchAll(db, sql: sql + " GROUP BY p.replica", arguments: arguments) {
            guard let replica = SQLValues.replica(stored: row[0]), let seq = SQLValues.unsigned(stored: row[1]) else {
                throw StoreError.corruptRow("snapshot_pruned")
            }
            cut[replica] = seq
        }
        return cut
    }

    /// `vector` less this device's changes not yet acknowledged: for each timeline with changes of `room`
    /// in the outbox, up to the first of them. What a store may leave out changes within, since a room
    /// snapshot stands for what came through a position of the server's log.
    static func acknowledgedPart(_ db: Database, of vector: VersionVector, room: String) throws -> VersionVector {
        var cut = vector
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT c.replica, min(c.seq) FROM outbox AS o JOIN change AS c ON c.replica = o.replica AND c.seq = o.seq
                WHERE c.room = ? GROUP BY c.replica
                """,
            arguments: [room]
        )
        for row in rows {
            guard let replica = SQLValues.replica(stored: row[0]), let first = SQLValues.unsigned(stored: row[1]) else {
                throw StoreError.corruptRow("outbox")
            }
            cut[replica] = min(cut[replica], first - 1)
        }
        return cut
    }

    /// The cut of the document's snapshot and whether it is compacted, without its bytes.
    static func fetchSnapshotCut(_ db: Database, room: String, document: String) throws -> (cut: Cut, compacted: Bool)?
    {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT id, compacted FROM snapshot WHERE room = ? AND document = ?"),
                arguments: [room, document]
            )
        else { return nil }
        return (try fetchCut(db, snapshot: row[0]), row[1])
    }

    static func fetchSnapshot(_ db: Database, room: String, document: String) throws -> StoredSnapshot? {
        try fetchSnapshots(
            db,
            sql: "SELECT id, document, schema_version, bytes FROM snapshot WHERE room = ? AND document = ?",
            arguments: [room, document],
            room: room
        ).first
    }

    /// The compacted snapshots of a room, or of one of its documents: those whose changes may exist
    /// nowhere else.
    static func fetchCompacted(_ db: Database, room: String, document: String?) throws -> [StoredSnapshot] {
        var sql = "SELECT id, document, schema_version, bytes FROM snapshot WHERE room = ? AND compacted"
        var arguments: StatementArguments = [room]
        if let document {
            sql += " AND document = ?"
            arguments += [document]
        }
        return try fetchSnapshots(db, sql: sql + " ORDER BY document", arguments: arguments, room: room)
    }

    private static func fetchSnapshots(
        _ db: Database,
        sql: String,
        arguments: StatementArguments,
        room: String
    ) throws -> [StoredSnapshot] {
        var snapshots: [StoredSnapshot] = []
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            let id: Int64 = row[0]
            guard let document = row[1] as String?, let schemaVersion = UInt32(exactly: row[2] as Int64),
                let bytes = row[3] as Data?
            else {
                throw StoreError.corruptRow("snapshot")
            }
            snapshots.append(
                StoredSnapshot(
                    room: room,
                    document: document,
                    cut: try fetchCut(db, snapshot: id),
                    schemaVersion: schemaVersion,
                    bytes: [UInt8](bytes),
                    prunedThrough: try fetchPrunedThrough(db, room: room, document: document)
                )
            )
        }
        return snapshots
    }

    private static func fetchCut(_ db: Database, snapshot id: Int64) throws -> Cut {
        var cut = Cut()
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT replica, seq, stamp FROM snapshot_frontier WHERE snapshot_id = ?"),
            arguments: [id]
        )
        while let frontier = try rows.next() {
            guard let replica = SQLValues.replica(stored: frontier[0]),
                let seq = SQLValues.unsigned(stored: frontier[1]),
                seq >= 1
            else { throw StoreError.corruptRow("snapshot_frontier") }
            cut.include(ChangeID(replica: replica, seq: seq), SQLValues.stamp(stored: frontier[2]))
        }
        return cut
    }
}
