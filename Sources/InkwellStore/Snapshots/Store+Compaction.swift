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
    /// A change inside its room's frontier without a row was compacted, or stood for without being held:
    /// left out because it stopped mattering, by this device or by a room snapshot it took. One that its
    /// document's snapshot holds is skipped. Any other is stored again, a late row that the next snapshot
    /// takes in or leaves out again: a snapshot taken on its author's word may have left out a change
    /// that still matters, which the change's own author then pushes again.
    ///
    /// The snapshot's bytes are not compared with the change's, so a replica that reused an id for
    /// other content within the same document goes unnoticed here (a held row would catch it).
    ///
    /// - Throws: ``StoreError/conflictingDuplicate(_:)`` when the id is held for another room, or held
    ///   by the snapshot of another document.
    /// - Complexity: O(log n); the first time a batch meets such a change in a room, O(size of the
    ///   room's compacted snapshots) to read which changes they hold.
    func isCompacted(_ db: Database, _ change: StoredChange, in compacted: inout CompactedChanges) throws -> Bool {
        // Past every frontier: if held at all, it is a row, and the insert sees it.
        guard let room = try compacted.roomHolding(change.id), let seq = SQLValues.integer(change.id.seq) else {
            return false
        }
        let hasRow = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM change WHERE replica = ? AND seq = ?)"),
            arguments: [SQLValues.replica(change.id.replica), seq]
        )
        if hasRow == true { return false }
        guard room == change.room else { throw StoreError.conflictingDuplicate(change.id) }
        switch try compacted.document(holding: change.id, room: room) { db, room in
            try Self.fetchCompacted(db, room: room, document: nil).map { try decodeSnapshot($0.bytes) }
        } {
        case change.document?: return true
        case .some: throw StoreError.conflictingDuplicate(change.id)
        case nil: return false
        }
    }
}

/// Which document's compacted snapshot holds each change of a room, read once per room for a batch
/// that meets a change without a row inside the room's frontier; and the room frontiers' entries of each
/// replica the batch meets, read once per replica (a batch does not move frontiers until its end).
struct CompactedChanges {
    private var rooms: [String: [ChangeID: String]] = [:]
    private var frontiers: [ReplicaID: [(room: String, seq: Int64)]] = [:]
    private let db: Database

    init(_ db: Database) { self.db = db }

    /// ``Store/roomHolding(_:_:)`` for the frontiers as they stood when the batch began: one query per
    /// replica, where a catch-up's batch holds hundreds of changes of each.
    mutating func roomHolding(_ id: ChangeID) throws -> String? {
        guard let seq = SQLValues.integer(id.seq) else { return nil }
        if frontiers[id.replica] == nil {
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT room, seq FROM room_frontier WHERE replica = ?"),
                arguments: [SQLValues.replica(id.replica)]
            )
            frontiers[id.replica] = rows.map { (room: $0["room"], seq: $0["seq"]) }
        }
        // At most one room holds an id; should two frontiers name it, the lowest reaching it answers, as
        // the index on (replica, seq) would.
        return frontiers[id.replica]!.filter { $0.seq >= seq }.min { ($0.seq, $0.room) < ($1.seq, $1.room) }?.room
    }

    mutating func document(
        holding id: ChangeID,
        room: String,
        snapshots: (Database, String) throws -> [DocumentSnapshot]
    ) throws -> String? {
        if let held = rooms[room] { return held[id] }
        var held: [ChangeID: String] = [:]
        for snapshot in try snapshots(db, room) {
            for change in snapshot.changeIDs { held[change] = snapshot.document }
        }
        rooms[room] = held
        return held[id]
    }
}
