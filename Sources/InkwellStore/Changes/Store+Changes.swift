import Foundation
import GRDB
public import InkwellSync

extension Store {
    /// The stored change with this id.
    ///
    /// - Complexity: O(log n).
    public func change(_ id: ChangeID) throws -> StoredChange? {
        try read { db in try Self.fetchChange(db, id) }
    }

    /// Every stored change of a board, in the total order `(stamp, replica, seq)`.
    ///
    /// - Complexity: O(log n + k) for k changes returned.
    public func changes(room: String, document: String) throws -> [StoredChange] {
        try read { db in try Self.fetchChanges(db, room: room, document: document, notIn: VersionVector()) }
    }

    /// The room's stored changes that `vector` does not describe, in total order: what a peer at `vector` lacks.
    ///
    /// - Complexity: O(log n + m) for m changes of the room.
    public func changes(room: String, notIn vector: VersionVector) throws -> [StoredChange] {
        try read { db in try Self.fetchChanges(db, room: room, document: nil, notIn: vector) }
    }

    /// The board's changes not inside `cut`, in total order: the tail to apply over a snapshot at `cut`.
    ///
    /// - Complexity: O(log n + m) for m changes of the board.
    public func changes(room: String, document: String, after cut: Cut) throws -> [StoredChange] {
        try read { db in try Self.fetchChanges(db, room: room, document: document, notIn: cut.vector) }
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

    /// The greatest stamp stored, to resume the replica's clock from (``Stamp/zero`` when empty).
    ///
    /// - Complexity: O(log n).
    public var latestStamp: Stamp {
        get throws {
            try read { db in
                try Int64.fetchOne(db, sql: "SELECT max(stamp) FROM change").map(SQLValues.stamp(stored:)) ?? .zero
            }
        }
    }

    /// The highest seq stored for `replica` (0 if none): a local change takes the next one.
    ///
    /// - Complexity: O(log n).
    public func lastSeq(of replica: ReplicaID) throws -> UInt64 {
        try read { db in
            let seq = try Int64.fetchOne(
                db,
                sql: "SELECT max(seq) FROM change WHERE replica = ?",
                arguments: [SQLValues.replica(replica)]
            )
            return seq.flatMap(SQLValues.unsigned(stored:)) ?? 0
        }
    }

    /// The changes of a room (or one of its boards) whose seq is past `vector`'s entry for their replica.
    static func fetchChanges(
        _ db: Database,
        room: String,
        document: String?,
        notIn vector: VersionVector
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
        let sql = """
            WITH known (known_replica, known_seq) AS (\(knownRows))
            SELECT \(StoredChange.columns) FROM change
            LEFT JOIN known ON known_replica = replica
            WHERE \(filter) AND seq > coalesce(known_seq, 0)
            ORDER BY stamp, replica, seq
            """
        var changes: [StoredChange] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() { changes.append(try StoredChange(row: row)) }
        return changes
    }
}
