import GRDB
public import InkwellSync

/// The cut a room snapshot taken in place of packs stands for (`room_cover`, schema 9).
///
/// A room snapshot may leave out changes that stopped mattering. A device that takes one instead of the
/// packs it never received holds none of those, and without more its frontier would stop at the first:
/// the snapshot writer would never fold what follows, and the device could never stand for the room in
/// a snapshot of its own.
extension Store {
    /// Records that the room's changes inside `cut` are accounted for by a room snapshot this device
    /// took: the room's frontier moves over them and over the rows they make contiguous. It holds those
    /// the snapshot held (store them first); the others stopped mattering, by the snapshot's word.
    ///
    /// A change inside the cut that comes later is still stored (``isCompacted(_:_:in:)``): a snapshot
    /// taken on its author's word may have left out one that still matters, which its own author then
    /// pushes again.
    ///
    /// Skipped: `own`, this device's timeline in the room, which it holds whole; and replicas whose
    /// changes the store files under another room, since an id is stored once. A frontier moved past
    /// changes the store does not hold takes the stamp of the latest it holds of that timeline (zero if
    /// none): the cut's stamps for changes not held are only the snapshot's word, and one too high would
    /// refuse that timeline's honest changes to come.
    ///
    /// - Complexity: O(r log n) for r replicas in the cut, plus the rows the frontier moves over.
    public func standFor(_ cut: Cut, room: String, own: ReplicaID?) throws {
        guard !room.isEmpty else { throw StoreError.emptyName() }
        try write { db in
            for (replica, seq) in cut.vector.entries.sorted(by: { $0.key < $1.key }) where replica != own {
                guard let seq = SQLValues.integer(seq), try !Self.isFiledElsewhere(db, replica, room: room) else {
                    continue
                }
                try Self.cover(db, room: room, replica: replica, through: seq)
            }
        }
    }

    /// The cut of the room snapshots this store took for `room`, each replica's furthest seq.
    public func cover(room: String) throws -> VersionVector {
        try read { db in try Self.fetchCover(db, room: room) }
    }

    static func fetchCover(_ db: Database, room: String) throws -> VersionVector {
        var cover = VersionVector()
        for row in try Row.fetchAll(db, sql: "SELECT replica, seq FROM room_cover WHERE room = ?", arguments: [room]) {
            guard let replica = SQLValues.replica(stored: row[0]), let seq = SQLValues.unsigned(stored: row[1]) else {
                throw StoreError.corruptRow("room_cover")
            }
            cover[replica] = seq
        }
        return cover
    }

    private static func isFiledElsewhere(_ db: Database, _ replica: ReplicaID, room: String) throws -> Bool {
        let stored = SQLValues.replica(replica)
        return try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM room_frontier WHERE replica = ?1 AND room <> ?2)
                        OR EXISTS (SELECT 1 FROM change WHERE replica = ?1 AND room <> ?2)
                    """
            ),
            arguments: [stored, room]
        ) ?? false
    }

    private static func cover(_ db: Database, room: String, replica: ReplicaID, through seq: Int64) throws {
        let stored = SQLValues.replica(replica)
        try db.cachedStatement(
            sql: """
                INSERT INTO room_cover (room, replica, seq) VALUES (?1, ?2, ?3)
                ON CONFLICT (room, replica) DO UPDATE SET seq = max(seq, ?3)
                """
        ).execute(arguments: [room, stored, seq])
        let current = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seq, stamp FROM room_frontier WHERE room = ? AND replica = ?"),
            arguments: [room, stored]
        )
        if let current, (current[0] as Int64) >= seq { return }
        let latestHeld = try Int64.fetchOne(
            db.cachedStatement(
                sql: "SELECT stamp FROM change WHERE replica = ? AND room = ? AND seq <= ? ORDER BY seq DESC LIMIT 1"
            ),
            arguments: [stored, room, seq]
        )
        // Stamps grow along a timeline: the later of the frontier's and the last row's is the latest held.
        let known = [latestHeld, current?[1] as Int64?].compactMap { $0 }
        var frontier = (seq: seq, stamp: known.max() ?? SQLValues.stamp(.zero))
        let next = try db.cachedStatement(sql: "SELECT stamp FROM change WHERE replica = ? AND seq = ? AND room = ?")
        while let stamp = try Int64.fetchOne(next, arguments: [stored, frontier.seq + 1, room]) {
            frontier = (frontier.seq + 1, stamp)
        }
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO room_frontier (room, replica, seq, stamp) VALUES (?, ?, ?, ?)"
        ).execute(arguments: [room, stored, frontier.seq, frontier.stamp])
    }
}
