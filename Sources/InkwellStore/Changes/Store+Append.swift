import Foundation
import GRDB
import InkwellSync

extension Store {
    /// Stores `changes` in one transaction, and with `enqueue` also queues the new ones for upload.
    ///
    /// Idempotent by id: a change already stored with the same content is skipped. If any change is
    /// invalid — too large, unnamed room or board, its id reused with different content, or a stamp
    /// that does not increase along its timeline — the whole batch is refused and nothing is stored.
    /// On success one ``StoreNotification`` names what was new.
    ///
    /// - Complexity: O(k log n) for k changes in a store of n, plus the frontier steps a change unblocks.
    @discardableResult
    public func append(_ changes: [StoredChange], enqueue: Bool = false) throws -> AppendResult {
        for change in changes { try validate(change) }
        return try write { db in
            var inserted: [ChangeID] = []
            var duplicates: [ChangeID] = []
            var boards: Set<BoardKey> = []
            var entities: Set<String> = []
            for change in changes {
                guard try Self.insert(db, change) else {
                    let stored = try Self.fetchChange(db, change.id)
                    guard stored?.isSameChange(as: change) == true else {
                        throw StoreError.conflictingDuplicate(change.id)
                    }
                    duplicates.append(change.id)
                    continue
                }
                if enqueue { try Self.enqueue(db, change.id) }
                inserted.append(change.id)
                boards.insert(BoardKey(room: change.room, board: change.board))
                entities.formUnion(change.entities)
            }
            if !inserted.isEmpty {
                notifyAfterCommit(db, StoreNotification(changes: inserted, boards: boards, entities: entities))
            }
            return AppendResult(inserted: inserted, duplicates: duplicates)
        }
    }

    private func validate(_ change: StoredChange) throws {
        guard change.payload.count <= configuration.maximumChangeBytes else {
            throw StoreError.payloadTooLarge(
                change.id,
                size: change.payload.count,
                limit: configuration.maximumChangeBytes
            )
        }
        guard !change.room.isEmpty, !change.board.isEmpty else { throw StoreError.emptyName(change.id) }
        guard SQLValues.integer(change.id.seq) != nil else { throw StoreError.outOfRange(change.id) }
    }

    /// Inserts the change unless its id is taken; returns whether it did.
    ///
    /// Inserting first and reading only on conflict keeps the common case (a new change) to one lookup.
    private static func insert(_ db: Database, _ change: StoredChange) throws -> Bool {
        let replica = SQLValues.replica(change.id.replica)
        let seq = Int64(change.id.seq)
        let stamp = SQLValues.stamp(change.stamp)
        try db.cachedStatement(
            sql: """
                INSERT INTO change (replica, seq, stamp, room, board, schema_version, payload, entities)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (replica, seq) DO NOTHING
                """
        )
        .execute(arguments: [
            replica, seq, stamp, change.room, change.board, Int64(change.schemaVersion), Data(change.payload),
            EntityList.encode(change.entities),
        ])
        guard db.changesCount == 1 else { return false }
        // Stamps increase along a timeline, whatever order its changes arrive in; a throw rolls the batch back.
        let neighbours = try db.cachedStatement(
            sql: """
                SELECT (SELECT stamp FROM change WHERE replica = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT 1),
                       (SELECT stamp FROM change WHERE replica = ?1 AND seq > ?2 ORDER BY seq LIMIT 1)
                """
        )
        if let row = try Row.fetchOne(neighbours, arguments: [replica, seq]) {
            let before: Int64? = row[0]
            let after: Int64? = row[1]
            if let before, before >= stamp { throw StoreError.stampNotMonotonic(change.id) }
            if let after, after <= stamp { throw StoreError.stampNotMonotonic(change.id) }
        }
        try advanceFrontier(db, room: change.room, replica: replica, through: seq, stamp: stamp)
        return true
    }

    /// Moves the room's frontier for `replica` over `seq` and any stored changes it makes contiguous.
    private static func advanceFrontier(
        _ db: Database,
        room: String,
        replica: Data,
        through seq: Int64,
        stamp: Int64
    )
        throws
    {
        let current =
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT seq FROM room_frontier WHERE room = ? AND replica = ?"),
                arguments: [room, replica]
            ) ?? 0
        guard seq == current + 1 else { return }
        var frontier = (seq: seq, stamp: stamp)
        let next = try db.cachedStatement(sql: "SELECT stamp FROM change WHERE replica = ? AND seq = ? AND room = ?")
        while let stamp = try Int64.fetchOne(next, arguments: [replica, frontier.seq + 1, room]) {
            frontier = (frontier.seq + 1, stamp)
        }
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO room_frontier (room, replica, seq, stamp) VALUES (?, ?, ?, ?)"
        )
        .execute(arguments: [room, replica, frontier.seq, frontier.stamp])
    }

    static func fetchChange(_ db: Database, _ id: ChangeID) throws -> StoredChange? {
        guard let seq = SQLValues.integer(id.seq) else { return nil }
        let statement = try db.cachedStatement(
            sql: "SELECT \(StoredChange.columns) FROM change WHERE replica = ? AND seq = ?"
        )
        return try Row.fetchOne(statement, arguments: [SQLValues.replica(id.replica), seq]).map(StoredChange.init)
    }
}
