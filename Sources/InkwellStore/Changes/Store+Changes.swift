import Foundation
import GRDB
public import InkwellSync

extension Store {
    /// The change with this id, held as a row or inside its document's snapshot.
    ///
    /// A change read back from a snapshot has no ``StoredChange/entities``: those index new changes
    /// for a redraw, and are not kept once a snapshot holds the change.
    ///
    /// - Complexity: O(log n) for a change held as a row; for one only inside a snapshot, O(size of
    ///   the compacted snapshots of its room whose cut covers it).
    public func change(_ id: ChangeID) throws -> StoredChange? {
        try read { db in
            if let row = try Self.fetchRow(db, id) { return row }
            guard let room = try Self.roomHolding(db, id) else { return nil }
            for snapshot in try Self.fetchCompacted(db, room: room, document: nil)
            where snapshot.cut.vector.contains(id) {
                if let change = try snapshotChanges(snapshot).first(where: { $0.id == id }) {
                    return change
                }
            }
            return nil
        }
    }

    /// Every change of a document the store holds, in the total order `(stamp, replica, seq)`: those
    /// held as rows and those only inside its snapshot.
    ///
    /// - Complexity: O(log n + k) for k changes held as rows, plus O(size of the snapshot) when it was
    ///   compacted.
    public func changes(room: String, document: String) throws -> [StoredChange] {
        try read { db in try fetchHeld(db, room: room, document: document, notIn: VersionVector()) }
    }

    /// The room's changes that `vector` does not describe, in total order: what a peer at `vector` lacks.
    ///
    /// - Complexity: O(log n + m) for m changes of the room held as rows, plus O(size) of each compacted
    ///   snapshot whose cut `vector` does not cover.
    public func changes(room: String, notIn vector: VersionVector) throws -> [StoredChange] {
        try read { db in try fetchHeld(db, room: room, document: nil, notIn: vector) }
    }

    /// The document's changes not inside `cut`, in total order: the tail to apply over a snapshot at `cut`.
    ///
    /// - Complexity: O(log n + m) for m changes of the document held as rows, plus O(size of the
    ///   snapshot) when it was compacted and `cut` does not cover its cut.
    public func changes(room: String, document: String, after cut: Cut) throws -> [StoredChange] {
        try read { db in try fetchHeld(db, room: room, document: document, notIn: cut.vector) }
    }

    /// For each replica, how far the room's changes are contiguous, with the stamp of the last one.
    ///
    /// Changes stored beyond a gap wait outside the frontier until the gap is filled.
    ///
    /// - Complexity: O(r) for r replicas in the room.
    public func frontier(room: String) throws -> Cut {
        try read { db in try Self.fetchFrontier(db, room: room) }
    }

    static func fetchFrontier(_ db: Database, room: String) throws -> Cut {
        var frontier = Cut()
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT replica, seq, stamp FROM room_frontier WHERE room = ?",
            arguments: [room]
        )
        while let row = try rows.next() {
            guard let replica = SQLValues.replica(stored: row[0]), let seq = SQLValues.unsigned(stored: row[1]),
                seq >= 1
            else { throw StoreError.corruptRow("room_frontier") }
            frontier.include(ChangeID(replica: replica, seq: seq), SQLValues.stamp(stored: row[2]))
        }
        return frontier
    }

    /// The greatest stamp held, to resume the replica's clock from (``Stamp/zero`` when empty).
    ///
    /// A change whose row was removed lies inside its room's frontier, whose stamp is at least its own.
    ///
    /// - Complexity: O(log n + f) for f entries of room frontiers.
    public var latestStamp: Stamp {
        get throws {
            try read { db in
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT (SELECT max(stamp) FROM change), (SELECT max(stamp) FROM room_frontier)"
                )
                let stamps = [row?[0] as Int64?, row?[1] as Int64?].compactMap { $0 }
                return stamps.max().map(SQLValues.stamp(stored:)) ?? .zero
            }
        }
    }

    /// The highest seq held for `replica` (0 if none): a local change takes the next one.
    ///
    /// Read from the rows and the room frontiers, so a timeline whose rows were all removed with their
    /// snapshot still continues where it was.
    ///
    /// - Complexity: O(log n).
    public func lastSeq(of replica: ReplicaID) throws -> UInt64 {
        try read { db in
            let seq = try Int64.fetchOne(
                db,
                sql: """
                    SELECT max(coalesce((SELECT max(seq) FROM change WHERE replica = ?1), 0),
                               coalesce((SELECT max(seq) FROM room_frontier WHERE replica = ?1), 0))
                    """,
                arguments: [SQLValues.replica(replica)]
            )
            return seq.flatMap(SQLValues.unsigned(stored:)) ?? 0
        }
    }

    /// The room that holds `id` inside its frontier, if one does: the change is held there, as a row or
    /// inside a snapshot. At most one room does, since an id is stored once.
    ///
    /// - Complexity: O(log f) for f entries of room frontiers.
    static func roomHolding(_ db: Database, _ id: ChangeID) throws -> String? {
        guard let seq = SQLValues.integer(id.seq) else { return nil }
        return try String.fetchOne(
            db.cachedStatement(sql: "SELECT room FROM room_frontier WHERE replica = ? AND seq >= ? LIMIT 1"),
            arguments: [SQLValues.replica(id.replica), seq]
        )
    }

    /// The change rows of a room (or one of its documents) whose seq is past `vector`'s entry for their
    /// replica (or, `inside`, those up to it), in total order; with `notQueued`, not those in the outbox. Changes only inside a compacted snapshot
    /// are not among them (``fetchHeld(_:room:document:notIn:)`` adds those).
    static func fetchRows(
        _ db: Database,
        room: String,
        document: String?,
        notIn vector: VersionVector,
        inside: Bool = false,
        notQueued: Bool = false
    ) throws
        -> [StoredChange]
    {
        var arguments: StatementArguments = []
        var known: [String] = []
        for (replica, seq) in vector.entries {
            known.append("SELECT ?, ?")
            // A vector entry past SQLite's range covers every storable seq.
            arguments += [SQLValues.replica(replica), SQLValues.integer(seq) ?? .max]
        }
        let knownRows = known.isEmpty ? "SELECT NULL, NULL LIMIT 0" : known.joined(separator: " UNION ALL ")
        arguments += [room]
        var filter = "room = ?"
        if let document {
            filter += " AND document = ?"
            arguments += [document]
        }
        if notQueued {
            filter +=
                " AND NOT EXISTS (SELECT 1 FROM outbox AS o WHERE o.replica = change.replica AND o.seq = change.seq)"
        }
        let sql = """
            WITH known (known_replica, known_seq) AS (\(knownRows))
            SELECT \(StoredChange.columns) FROM change
            LEFT JOIN known ON known_replica = replica
            WHERE \(filter) AND seq \(inside ? "<=" : ">") coalesce(known_seq, 0)
            ORDER BY stamp, replica, seq
            """
        var changes: [StoredChange] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() { changes.append(try StoredChange(row: row)) }
        return changes
    }
}
