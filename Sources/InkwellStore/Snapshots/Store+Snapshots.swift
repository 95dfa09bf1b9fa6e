import Foundation
import GRDB
import InkwellSync

extension Store {
    /// Keeps `snapshot` as its board's snapshot, replacing the previous one in the same transaction.
    ///
    /// - Throws: ``StoreError/snapshotNotNewer`` if the stored snapshot has changes the new one lacks
    ///   (join the states first); the stored one is then kept.
    public func writeSnapshot(_ snapshot: StoredSnapshot) throws {
        guard !snapshot.room.isEmpty, !snapshot.document.isEmpty else { throw StoreError.emptyName() }
        guard snapshot.bytes.count <= configuration.maximumValueBytes else {
            throw StoreError.payloadTooLarge(nil, size: snapshot.bytes.count, limit: configuration.maximumValueBytes)
        }
        guard snapshot.cut.vector.entries.values.allSatisfy({ SQLValues.integer($0) != nil }) else {
            throw StoreError.outOfRange()
        }
        try write { db in
            if let stored = try Self.fetchSnapshot(db, room: snapshot.room, document: snapshot.document),
                !snapshot.cut.vector.covers(stored.cut.vector)
            {
                throw StoreError.snapshotNotNewer
            }
            try db.execute(
                sql: "DELETE FROM snapshot WHERE room = ? AND document = ?",
                arguments: [snapshot.room, snapshot.document]
            )
            try db.execute(
                sql: "INSERT INTO snapshot (room, document, schema_version, bytes) VALUES (?, ?, ?, ?)",
                arguments: [snapshot.room, snapshot.document, Int64(snapshot.schemaVersion), Data(snapshot.bytes)]
            )
            let id = db.lastInsertedRowID
            let frontier = try db.cachedStatement(
                sql: "INSERT INTO snapshot_frontier (snapshot_id, replica, seq, stamp) VALUES (?, ?, ?, ?)"
            )
            for (replica, seq) in snapshot.cut.vector.entries {
                let stamp = snapshot.cut.stamps[replica] ?? .zero
                try frontier.execute(arguments: [
                    id, SQLValues.replica(replica), Int64(seq), SQLValues.stamp(stamp),
                ])
            }
        }
    }

    /// The board's snapshot, if one was written.
    public func latestSnapshot(room: String, document: String) throws -> StoredSnapshot? {
        try read { db in try Self.fetchSnapshot(db, room: room, document: document) }
    }

    /// The board's snapshot and the changes not inside it, read together so they agree.
    ///
    /// - Complexity: O(log n + m) for m changes of the board.
    public func coldOpen(room: String, document: String) throws -> DocumentContents {
        try read { db in try Self.fetchContents(db, room: room, document: document) }
    }

    /// What a snapshot is cut from: the document's contents and the room's contiguous frontier, read in
    /// one transaction, so that no change committed in between lies inside the frontier and outside
    /// the contents.
    func contentsAndFrontier(room: String, document: String) throws -> (DocumentContents, Cut) {
        try read { db in
            (try Self.fetchContents(db, room: room, document: document), try Self.fetchFrontier(db, room: room))
        }
    }

    private static func fetchContents(_ db: Database, room: String, document: String) throws -> DocumentContents {
        let snapshot = try Self.fetchSnapshot(db, room: room, document: document)
        let tail = try Self.fetchChanges(
            db,
            room: room,
            document: document,
            notIn: snapshot?.cut.vector ?? VersionVector()
        )
        return DocumentContents(snapshot: snapshot, tail: tail)
    }

    private static func fetchSnapshot(_ db: Database, room: String, document: String) throws -> StoredSnapshot? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT id, schema_version, bytes FROM snapshot WHERE room = ? AND document = ?",
                arguments: [room, document]
            )
        else { return nil }
        let id: Int64 = row[0]
        guard let schemaVersion = UInt32(exactly: row[1] as Int64), let bytes = row[2] as Data? else {
            throw StoreError.corruptRow("snapshot")
        }
        var cut = Cut()
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT replica, seq, stamp FROM snapshot_frontier WHERE snapshot_id = ?",
            arguments: [id]
        )
        while let frontier = try rows.next() {
            guard let replica = SQLValues.replica(stored: frontier[0]),
                let seq = SQLValues.unsigned(stored: frontier[1]),
                seq >= 1
            else { throw StoreError.corruptRow("snapshot_frontier") }
            cut.include(ChangeID(replica: replica, seq: seq), SQLValues.stamp(stored: frontier[2]))
        }
        return StoredSnapshot(
            room: room,
            document: document,
            cut: cut,
            schemaVersion: schemaVersion,
            bytes: [UInt8](bytes)
        )
    }
}
