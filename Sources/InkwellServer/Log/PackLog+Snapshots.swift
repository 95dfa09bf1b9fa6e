import Foundation
import GRDB
public import InkwellSync
public import InkwellWire

/// Room snapshots in the log, and the compaction they allow.
///
/// A snapshot's parts are packs like any other (stored at their own positions, relayed live, counted in
/// the room's bytes); what their envelopes claim is kept beside them, so that the log knows which
/// snapshots are whole and which positions each stands for, without opening a part.
///
/// **The rule for dropping packs.** The packs through a position `p` are dropped only when a whole
/// snapshot standing for at least `p` has been checked, with a signed ``SnapshotCheck``, by every author
/// of the room seen within the retention (an author is seen when it pushes or checks), and every device
/// seen within the retention has said it holds `p`. A snapshot that lies is refused by the devices that
/// hold what it leaves out, so it is never checked by all, and nothing is dropped on its word. A floor held
/// below its snapshot's position by a device present moves up, on later passes, as the device does.
extension PackLog {
    /// What the log keeps in place of the packs it dropped from a room.
    public struct Floor: Hashable, Sendable {
        /// Every pack through this position was dropped.
        public let position: UInt64
        /// The snapshot that stands for them, and the position it stands for (at least ``position``).
        public let snapshot: SnapshotID
        public let covers: UInt64
    }

    /// How often, at most, a room takes a new snapshot: the bytes stored since the newest snapshot's
    /// position must reach half of that snapshot's size and at least this (a log's own spacing, which only
    /// a harness sets otherwise).
    public static let minimumBytesBetweenSnapshots: UInt64 = 64 << 10
    /// Snapshots still missing parts, per room: a part of a new one beyond this is refused.
    public static let maximumSnapshotsInProgress = 4

    static func createSnapshots(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE room_snapshot (
                    room TEXT NOT NULL,
                    snapshot BLOB NOT NULL CHECK (length(snapshot) = 16),
                    author BLOB NOT NULL CHECK (length(author) = 16),
                    covers INTEGER NOT NULL CHECK (covers >= 1),
                    parts INTEGER NOT NULL CHECK (parts >= 1),
                    claim BLOB NOT NULL CHECK (length(claim) = 32),
                    held INTEGER NOT NULL DEFAULT 0,
                    bytes INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (room, snapshot)
                ) WITHOUT ROWID;
                CREATE TABLE snapshot_part (
                    room TEXT NOT NULL,
                    snapshot BLOB NOT NULL,
                    part INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (room, snapshot, part)
                ) WITHOUT ROWID;
                CREATE TABLE snapshot_check (
                    room TEXT NOT NULL,
                    snapshot BLOB NOT NULL,
                    replica BLOB NOT NULL,
                    checked_at INTEGER NOT NULL,
                    PRIMARY KEY (room, snapshot, replica)
                ) WITHOUT ROWID;
                CREATE TABLE room_author (
                    room TEXT NOT NULL,
                    replica BLOB NOT NULL CHECK (length(replica) = 16),
                    seen_at INTEGER NOT NULL,
                    PRIMARY KEY (room, replica)
                ) WITHOUT ROWID;
                CREATE TABLE room_floor (
                    room TEXT PRIMARY KEY NOT NULL,
                    position INTEGER NOT NULL CHECK (position >= 1),
                    end_offset INTEGER NOT NULL,
                    snapshot BLOB NOT NULL,
                    covers INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE compaction_epoch (
                    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                    started_at INTEGER NOT NULL
                );
                ALTER TABLE device_watermark ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;
                """
        )
        // Authors and devices seen before this version were never recorded: in a log that holds packs
        // already, nothing is dropped until a whole retention has passed since, so that every one still in
        // use has been seen again. A new log has no one unrecorded.
        try db.execute(
            sql: """
                INSERT INTO compaction_epoch (singleton, started_at)
                VALUES (1, CASE WHEN EXISTS (SELECT 1 FROM pack) THEN ? ELSE 0 END)
                """,
            arguments: [Int64(Date().timeIntervalSince1970 * 1000)]
        )
    }

    // MARK: Appending

    /// Why a snapshot part is not kept, checked in the transaction that would store it; `nil` to keep it.
    /// A new snapshot needs `spacing` bytes stored since the newest one, at least.
    static func refusal(
        of cover: SnapshotCover,
        by author: ReplicaID,
        room: String,
        spacing: UInt64,
        in db: Database
    ) throws -> String? {
        let id = Data(cover.id.bytes)
        if let known = try Row.fetchOne(
            db,
            sql: "SELECT author, claim, held, parts FROM room_snapshot WHERE room = ? AND snapshot = ?",
            arguments: [room, id]
        ) {
            guard (known[0] as Data) == Data(author.bytes), (known[1] as Data) == claim(of: cover) else {
                return "its parts disagree on what it holds"
            }
            guard (known[2] as Int64) < (known[3] as Int64) else { return "it is already whole" }
            let held = try Bool.fetchOne(
                db,
                sql: "SELECT 1 FROM snapshot_part WHERE room = ? AND snapshot = ? AND part = ?",
                arguments: [room, id, Int64(cover.part)]
            )
            return held == true ? "this part is already stored" : nil
        }
        let (head, end) = try extent(room: room, in: db)
        guard cover.position <= head else { return "it claims position \(cover.position), past the room's \(head)" }
        if let floor = try floor(room: room, in: db), cover.position <= floor.covers {
            return "it stands for no more than the snapshot the room keeps"
        }
        if let newest = try Row.fetchOne(
            db,
            sql: """
                SELECT covers, bytes FROM room_snapshot WHERE room = ? AND held = parts
                ORDER BY covers DESC LIMIT 1
                """,
            arguments: [room]
        ) {
            let covers = UInt64(newest[0] as Int64)
            guard cover.position > covers else { return "it stands for no more than the room's newest snapshot" }
            let since = end - (try offset(room: room, after: covers, in: db))
            let needed = max(spacing, UInt64(newest[1] as Int64) / 2)
            guard since >= needed else { return "too soon after the room's newest snapshot" }
        }
        let inProgress = try Int.fetchOne(
            db,
            sql: "SELECT COUNT(*) FROM room_snapshot WHERE room = ? AND held < parts",
            arguments: [room]
        )!
        guard inProgress < maximumSnapshotsInProgress else { return "too many snapshots of the room are unfinished" }
        return nil
    }

    /// Records a stored part of a snapshot; the snapshot's author checks its own snapshot once it is whole.
    static func recordPart(
        _ cover: SnapshotCover,
        by author: ReplicaID,
        room: String,
        position: UInt64,
        bytes: Int,
        now: Int64,
        in db: Database
    ) throws {
        let id = Data(cover.id.bytes)
        try db.execute(
            sql: """
                INSERT INTO room_snapshot (room, snapshot, author, covers, parts, claim) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (room, snapshot) DO NOTHING
                """,
            arguments: [room, id, Data(author.bytes), Int64(cover.position), Int64(cover.parts), claim(of: cover)]
        )
        try db.execute(
            sql: "INSERT INTO snapshot_part (room, snapshot, part, position) VALUES (?, ?, ?, ?)",
            arguments: [room, id, Int64(cover.part), Int64(position)]
        )
        try db.execute(
            sql: "UPDATE room_snapshot SET held = held + 1, bytes = bytes + ? WHERE room = ? AND snapshot = ?",
            arguments: [Int64(bytes), room, id]
        )
        let whole = try Bool.fetchOne(
            db,
            sql: "SELECT held = parts FROM room_snapshot WHERE room = ? AND snapshot = ?",
            arguments: [room, id]
        )
        if whole == true { try check(cover.id, by: author, room: room, now: now, in: db) }
    }

    /// Notes that `author` pushed to the room now.
    static func see(author: ReplicaID, room: String, now: Int64, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO room_author (room, replica, seen_at) VALUES (?, ?, ?)
                ON CONFLICT (room, replica) DO UPDATE SET seen_at = MAX(seen_at, excluded.seen_at)
                """,
            arguments: [room, Data(author.bytes), now]
        )
    }

    static func claim(of cover: SnapshotCover) -> Data { Data(cover.claimDigest) }

    // MARK: Checks

    /// Records that `signer` checked and holds a whole snapshot of the room. A check of a snapshot the
    /// room does not hold whole, or by a replica that never pushed to the room, is ignored.
    ///
    /// - Returns: whether it was recorded.
    ///
    /// A device checks a snapshot only once it holds every position the snapshot stands for (they come
    /// before its parts), so a check that counts also moves `device`'s watermark there: a device that
    /// stays connected holds compaction back no longer than it takes to check.
    public func recordCheck(
        room: String,
        snapshot: SnapshotID,
        signer: ReplicaID,
        device: ReplicaID? = nil
    ) async throws -> Bool {
        let now = wallClock.millisecondsSince1970()
        // Read first: a check that counts for nothing takes no turn at the log's one writer.
        let counts = try await reading {
            try await database.read { db in try Self.counts(snapshot, by: signer, room: room, in: db) }
        }
        guard counts else { return false }
        return try await committing {
            try await database.write { db in
                guard try Self.counts(snapshot, by: signer, room: room, in: db) else { return false }
                try Self.check(snapshot, by: signer, room: room, now: Int64(clamping: now), in: db)
                if let device,
                    let covers = try Int64.fetchOne(
                        db,
                        sql: "SELECT covers FROM room_snapshot WHERE room = ? AND snapshot = ?",
                        arguments: [room, Data(snapshot.bytes)]
                    )
                {
                    try Self.setWatermark(room: room, device: device, to: UInt64(max(covers, 0)), now: now, in: db)
                }
                return true
            }
        }
    }

    /// Whether a check by `signer` of `snapshot` counts: it wrote to the room, and the room holds the
    /// snapshot whole.
    private static func counts(
        _ snapshot: SnapshotID,
        by signer: ReplicaID,
        room: String,
        in db: Database
    ) throws
        -> Bool
    {
        let author = try Bool.fetchOne(
            db,
            sql: "SELECT 1 FROM room_author WHERE room = ? AND replica = ?",
            arguments: [room, Data(signer.bytes)]
        )
        let whole = try Bool.fetchOne(
            db,
            sql: "SELECT held = parts FROM room_snapshot WHERE room = ? AND snapshot = ?",
            arguments: [room, Data(snapshot.bytes)]
        )
        return author == true && whole == true
    }

    private static func check(
        _ snapshot: SnapshotID,
        by replica: ReplicaID,
        room: String,
        now: Int64,
        in db: Database
    )
        throws
    {
        try db.execute(
            sql: """
                INSERT INTO snapshot_check (room, snapshot, replica, checked_at) VALUES (?, ?, ?, ?)
                ON CONFLICT DO UPDATE SET checked_at = excluded.checked_at
                """,
            arguments: [room, Data(snapshot.bytes), Data(replica.bytes), now]
        )
        try see(author: replica, room: room, now: now, in: db)
    }

    // MARK: Reading

    /// What the log keeps in place of the room's dropped packs; `nil` while it has dropped none.
    public func floor(room: String) async throws -> Floor? {
        try await reading { try await database.read { db in try Self.floor(room: room, in: db) } }
    }

    /// ``floor(room:)``, read on the caller's thread.
    package func floor(room: String) throws -> Floor? {
        try reading { try pool.read { db in try Self.floor(room: room, in: db) } }
    }

    static func floor(room: String, in db: Database) throws -> Floor? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT position, snapshot, covers FROM room_floor WHERE room = ?"),
                arguments: [room]
            )
        else { return nil }
        guard let snapshot = SnapshotID(bytes: row[1] as Data) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "room_floor names no snapshot")
        }
        return Floor(position: UInt64(row[0] as Int64), snapshot: snapshot, covers: UInt64(row[2] as Int64))
    }

    /// Where the room's dropped bytes end: what no longer counts toward its size.
    static func floorOffset(room: String, in db: Database) throws -> UInt64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT end_offset FROM room_floor WHERE room = ?"),
            arguments: [room]
        ).map { UInt64($0) } ?? 0
    }

    /// The parts of a snapshot the room holds, in order, each at its position.
    public func snapshotParts(room: String, snapshot: SnapshotID) async throws -> [StoredPack] {
        try await reading {
            try await database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT p.position, p.bytes FROM snapshot_part s
                        JOIN pack p ON p.room = s.room AND p.position = s.position
                        WHERE s.room = ? AND s.snapshot = ? ORDER BY s.part
                        """,
                    arguments: [room, Data(snapshot.bytes)]
                ).map { StoredPack(serverSeq: UInt64($0[0] as Int64), bytes: [UInt8]($0[1] as Data)) }
            }
        }
    }

    // MARK: Compaction

    /// Where a compaction drops packs through, by the rule above, or nil when there is nothing to do: no
    /// further than `snapshot` stands for (`covers`) or the lowest watermark of a device present holds,
    /// never below the `previous` floor; nil as well for the floor's own snapshot with no device moved
    /// past it. Every store applies this one rule.
    static func compactionFloor(
        snapshot: SnapshotID,
        covers: UInt64,
        lowestWatermark lowest: Int64?,
        previous: Floor?,
        overreaching: Bool
    ) -> UInt64? {
        let through =
            max(min(covers, lowest.map { UInt64(max($0, 0)) } ?? covers), previous?.position ?? 0)
            + (overreaching ? 1 : 0)
        guard through >= 1 else { return nil }
        if let previous, previous.snapshot == snapshot, through == previous.position { return nil }
        return through
    }

    /// What one room's compaction did.
    public struct Compaction: Hashable, Sendable {
        public let room: String
        /// The packs dropped, through this position.
        public let floor: UInt64
        public let packsDropped: Int
        public let bytesDropped: UInt64
    }

    /// Drops, in every room that allows it, the packs a snapshot stands for (see the rule above), and
    /// the snapshots older than it. Each room in its own transaction.
    ///
    /// - Parameter retention: how long an author or device counts as present after it was last seen.
    public func compact(retention: Duration) async throws -> [Compaction] {
        try await compact(retention: retention, injectedBug: nil)
    }

    /// ``compact(retention:)``, with a bug the simulation puts in on purpose.
    package func compact(retention: Duration, injectedBug: InjectedServerBug?) async throws -> [Compaction] {
        let now = Int64(clamping: wallClock.millisecondsSince1970())
        let horizon = now - Int64(retention.components.seconds) * 1000
        let rooms = try await reading {
            try await database.read { db -> [String] in
                let epoch = try Int64.fetchOne(db, sql: "SELECT started_at FROM compaction_epoch") ?? now
                guard epoch <= horizon else { return [] }
                return try String.fetchAll(
                    db,
                    sql: """
                        SELECT DISTINCT s.room FROM room_snapshot s LEFT JOIN room_floor f ON f.room = s.room
                        WHERE s.held = s.parts
                          AND (s.covers > IFNULL(f.covers, 0) OR (s.snapshot = f.snapshot AND f.position < f.covers))
                        """
                )
            }
        }
        var done: [Compaction] = []
        for room in rooms {
            let compaction = try await committing {
                try await database.write { db in
                    try Self.compact(
                        room: room,
                        horizon: horizon,
                        overreaching: injectedBug == .compactPastSnapshot,
                        in: db
                    )
                }
            }
            if let compaction { done.append(compaction) }
        }
        return done
    }

    private static func compact(
        room: String,
        horizon: Int64,
        overreaching: Bool,
        in db: Database
    ) throws -> Compaction? {
        let previous = try floor(room: room, in: db)
        // The newest whole snapshot every author present has checked: a newer one than the floor's, or the
        // floor's own while devices held the floor below what it stands for.
        let chosen = try Row.fetchOne(
            db,
            sql: """
                SELECT s.snapshot, s.covers FROM room_snapshot s
                WHERE s.room = ? AND s.held = s.parts AND (s.covers > ? OR (s.snapshot = ? AND ? < s.covers))
                  AND NOT EXISTS (
                    SELECT 1 FROM room_author a
                    WHERE a.room = s.room AND a.seen_at >= ?
                      AND NOT EXISTS (
                        SELECT 1 FROM snapshot_check c
                        WHERE c.room = s.room AND c.snapshot = s.snapshot AND c.replica = a.replica))
                ORDER BY s.covers DESC LIMIT 1
                """,
            arguments: [
                room, Int64(previous?.covers ?? 0), previous.map { Data($0.snapshot.bytes) },
                Int64(previous?.position ?? 0), horizon,
            ]
        )
        guard let chosen, let snapshot = SnapshotID(bytes: chosen[0] as Data) else { return nil }
        let covers = UInt64(chosen[1] as Int64)
        // No further than any device present holds.
        let lowest = try Int64.fetchOne(
            db,
            sql: "SELECT MIN(position) FROM device_watermark WHERE room = ? AND seen_at >= ?",
            arguments: [room, horizon]
        )
        guard
            let through = Self.compactionFloor(
                snapshot: snapshot,
                covers: covers,
                lowestWatermark: lowest,
                previous: previous,
                overreaching: overreaching
            )
        else { return nil }
        var dropped = (packs: 0, bytes: UInt64(0))
        if through > (previous?.position ?? 0) {
            let before = previous?.position ?? 0
            let row = try Row.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*), IFNULL(SUM(LENGTH(bytes)), 0) FROM pack WHERE room = ? AND position > ? AND position <= ?",
                arguments: [room, Int64(before), Int64(through)]
            )!
            dropped = (Int(row[0] as Int64), UInt64(row[1] as Int64))
            try db.execute(
                sql: "DELETE FROM pack WHERE room = ? AND position > ? AND position <= ?",
                arguments: [room, Int64(before), Int64(through)]
            )
        }
        let endOffset = try offset(room: room, after: through, in: db)
        // The extent at the floor stays: it is where the room's bytes now start.
        try db.execute(
            sql: "DELETE FROM pack_extent WHERE room = ? AND position < ?",
            arguments: [room, Int64(through)]
        )
        // Older snapshots go: the one kept stands for more.
        let older = try Data.fetchAll(
            db,
            sql: "SELECT snapshot FROM room_snapshot WHERE room = ? AND covers < ?",
            arguments: [room, Int64(covers)]
        )
        for id in older {
            for table in ["room_snapshot", "snapshot_part", "snapshot_check"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE room = ? AND snapshot = ?", arguments: [room, id])
            }
        }
        try db.execute(
            sql: """
                INSERT INTO room_floor (room, position, end_offset, snapshot, covers) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (room) DO UPDATE SET position = excluded.position, end_offset = excluded.end_offset,
                    snapshot = excluded.snapshot, covers = excluded.covers
                """,
            arguments: [room, Int64(through), Int64(endOffset), Data(snapshot.bytes), Int64(covers)]
        )
        return Compaction(room: room, floor: through, packsDropped: dropped.packs, bytesDropped: dropped.bytes)
    }
}
