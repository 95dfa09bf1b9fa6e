package import InkwellSync
package import InkwellWire
import Logging
import NIOCore
import PostgresNIO

/// Room snapshots and compaction in PostgreSQL, with the SQLite log's rule for dropping packs (stated in
/// PackLog+Snapshots.swift). Each room's checks and compaction lock its `room_head` row, as commits do,
/// so that a compaction on one node never drops what a commit or a check on another is deciding on.
extension PostgresPackLog {
    /// What the floor row holds, with where the dropped bytes end.
    struct FloorRow {
        let floor: PackLog.Floor
        let endOffset: UInt64
    }

    // MARK: Appending

    /// Why a snapshot part is not kept, read in the commit that would store it; nil to keep it. `head` and
    /// `end` are the room's as the commit has moved them.
    func refusal(
        of cover: SnapshotCover,
        by author: ReplicaID,
        room: String,
        head: UInt64,
        end: UInt64,
        on connection: PostgresConnection
    ) async throws -> String? {
        let id = Self.bytes(cover.id.bytes)
        if let known = try await Self.first(
            (ByteBuffer, ByteBuffer, Int64, Int64).self,
            "SELECT author, claim, held, parts FROM room_snapshot WHERE room = \(room) AND snapshot = \(id)",
            on: connection,
            logger: logger
        ) {
            guard Array(known.0.readableBytesView) == author.bytes,
                Array(known.1.readableBytesView) == cover.claimDigest
            else { return "its parts disagree on what it holds" }
            guard known.2 < known.3 else { return "it is already whole" }
            let held = try await Self.first(
                Int.self,
                "SELECT 1 FROM snapshot_part WHERE room = \(room) AND snapshot = \(id) AND part = \(Int64(cover.part))",
                on: connection,
                logger: logger
            )
            return held != nil ? "this part is already stored" : nil
        }
        guard cover.position <= head else { return "it claims position \(cover.position), past the room's \(head)" }
        if let floor = try await Self.floor(room: room, on: connection, logger: logger),
            cover.position <= floor.floor.covers
        {
            return "it stands for no more than the snapshot the room keeps"
        }
        if let newest = try await Self.first(
            (Int64, Int64).self,
            """
            SELECT covers, bytes FROM room_snapshot WHERE room = \(room) AND held = parts
            ORDER BY covers DESC LIMIT 1
            """,
            on: connection,
            logger: logger
        ) {
            let covers = UInt64(newest.0)
            guard cover.position > covers else { return "it stands for no more than the room's newest snapshot" }
            let since = end - (try await Self.offset(room: room, after: covers, on: connection, logger: logger))
            let needed = max(bytesBetweenSnapshots, UInt64(newest.1) / 2)
            guard since >= needed else { return "too soon after the room's newest snapshot" }
        }
        let inProgress =
            try await Self.first(
                Int64.self,
                "SELECT count(*) FROM room_snapshot WHERE room = \(room) AND held < parts",
                on: connection,
                logger: logger
            ) ?? 0
        guard inProgress < PackLog.maximumSnapshotsInProgress else {
            return "too many snapshots of the room are unfinished"
        }
        return nil
    }

    /// Records a stored part of a snapshot; the snapshot's author checks its own snapshot once it is whole.
    func recordPart(
        _ cover: SnapshotCover,
        by author: ReplicaID,
        room: String,
        position: UInt64,
        bytes: Int,
        on connection: PostgresConnection
    ) async throws {
        let id = Self.bytes(cover.id.bytes)
        try await connection.query(
            """
            INSERT INTO room_snapshot (room, snapshot, author, covers, parts, claim)
            VALUES (\(room), \(id), \(Self.bytes(author.bytes)), \(Int64(cover.position)), \(Int64(cover.parts)),
                    \(Self.bytes(cover.claimDigest)))
            ON CONFLICT (room, snapshot) DO NOTHING
            """,
            logger: logger
        )
        try await connection.query(
            """
            INSERT INTO snapshot_part (room, snapshot, part, position)
            VALUES (\(room), \(id), \(Int64(cover.part)), \(Int64(position)))
            """,
            logger: logger
        )
        let whole = try await Self.first(
            Bool.self,
            """
            UPDATE room_snapshot SET held = held + 1, bytes = bytes + \(Int64(bytes))
            WHERE room = \(room) AND snapshot = \(id) RETURNING held = parts
            """,
            on: connection,
            logger: logger
        )
        if whole == true { try await check(cover.id, by: author, room: room, on: connection) }
    }

    // MARK: Checks

    package func recordCheck(
        room: String,
        snapshot: SnapshotID,
        signer: ReplicaID,
        device: ReplicaID?
    ) async throws -> Bool {
        try await counting { [self] in
            // Read first: a check that counts for nothing takes no lock.
            let counts = try await client.withConnection { connection in
                try await Self.counts(snapshot, by: signer, room: room, on: connection, logger: logger)
            }
            guard counts else { return false }
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT 1 FROM room_head WHERE room = \(room) FOR UPDATE", logger: logger)
                guard try await Self.counts(snapshot, by: signer, room: room, on: connection, logger: logger) else {
                    return false
                }
                try await check(snapshot, by: signer, room: room, on: connection)
                if let device,
                    let covers = try await Self.first(
                        Int64.self,
                        "SELECT covers FROM room_snapshot WHERE room = \(room) AND snapshot = \(Self.bytes(snapshot.bytes))",
                        on: connection,
                        logger: logger
                    )
                {
                    try await Self.setWatermarks(
                        [PackLog.Watermark(room: room, device: device, position: UInt64(max(covers, 0)))],
                        now: now,
                        on: connection,
                        logger: logger
                    )
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
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Bool {
        let counts = try await first(
            Bool.self,
            """
            SELECT EXISTS (SELECT 1 FROM room_author WHERE room = \(room) AND replica = \(bytes(signer.bytes)))
               AND EXISTS (SELECT 1 FROM room_snapshot WHERE room = \(room) AND snapshot = \(bytes(snapshot.bytes))
                           AND held = parts)
            """,
            on: connection,
            logger: logger
        )
        return counts == true
    }

    private func check(
        _ snapshot: SnapshotID,
        by replica: ReplicaID,
        room: String,
        on connection: PostgresConnection
    ) async throws {
        let now = now
        try await connection.query(
            """
            INSERT INTO snapshot_check (room, snapshot, replica, checked_at)
            VALUES (\(room), \(Self.bytes(snapshot.bytes)), \(Self.bytes(replica.bytes)), \(now))
            ON CONFLICT (room, snapshot, replica) DO UPDATE SET checked_at = excluded.checked_at
            """,
            logger: logger
        )
        try await Self.see([(room: room, author: replica)], now: now, on: connection, logger: logger)
    }

    // MARK: Reading

    package func floor(room: String) async throws -> PackLog.Floor? {
        try await counting { [self] in
            try await client.withConnection { connection in
                try await Self.floor(room: room, on: connection, logger: logger)?.floor
            }
        }
    }

    static func floor(room: String, on connection: PostgresConnection, logger: Logger) async throws -> FloorRow? {
        guard
            let row = try await first(
                (Int64, Int64, ByteBuffer, Int64).self,
                "SELECT position, end_offset, snapshot, covers FROM room_floor WHERE room = \(room)",
                on: connection,
                logger: logger
            )
        else { return nil }
        guard let snapshot = SnapshotID(bytes: Array(row.2.readableBytesView)) else {
            throw Failure.damaged("room_floor names no snapshot")
        }
        return FloorRow(
            floor: PackLog.Floor(position: UInt64(row.0), snapshot: snapshot, covers: UInt64(row.3)),
            endOffset: UInt64(row.1)
        )
    }

    package func snapshotParts(room: String, snapshot: SnapshotID) async throws -> [StoredPack] {
        try await counting { [self] in
            let rows = try await client.query(
                """
                SELECT p.position, p.bytes FROM snapshot_part s
                JOIN pack p ON p.room = s.room AND p.position = s.position
                WHERE s.room = \(room) AND s.snapshot = \(Self.bytes(snapshot.bytes)) ORDER BY s.part
                """,
                logger: logger
            )
            var parts: [StoredPack] = []
            for try await (position, bytes) in rows.decode((Int64, ByteBuffer).self) {
                parts.append(StoredPack(serverSeq: UInt64(position), bytes: Array(bytes.readableBytesView)))
            }
            return parts
        }
    }

    // MARK: Compaction

    package func compact(retention: Duration, injectedBug: InjectedServerBug?) async throws -> [PackLog.Compaction] {
        let horizon = now - Int64(retention.components.seconds) * 1000
        return try await counting { [self] in
            var rooms: [String] = []
            let rows = try await client.query(
                """
                SELECT DISTINCT s.room FROM room_snapshot s LEFT JOIN room_floor f ON f.room = s.room
                WHERE s.held = s.parts
                  AND (s.covers > coalesce(f.covers, 0) OR (s.snapshot = f.snapshot AND f.position < f.covers))
                """,
                logger: logger
            )
            for try await room in rows.decode(String.self) { rooms.append(room) }
            var done: [PackLog.Compaction] = []
            for room in rooms {
                let compaction = try await client.withTransaction(logger: logger) { connection in
                    try await compact(
                        room: room,
                        horizon: horizon,
                        overreaching: injectedBug == .compactPastSnapshot,
                        on: connection
                    )
                }
                if let compaction { done.append(compaction) }
            }
            return done
        }
    }

    private func compact(
        room: String,
        horizon: Int64,
        overreaching: Bool,
        on connection: PostgresConnection
    ) async throws -> PackLog.Compaction? {
        try await connection.query("SELECT 1 FROM room_head WHERE room = \(room) FOR UPDATE", logger: logger)
        let previous = try await Self.floor(room: room, on: connection, logger: logger)?.floor
        // The newest whole snapshot every author present has checked: a newer one than the floor's, or the
        // floor's own while devices held the floor below what it stands for.
        let previousSnapshot = ByteBuffer(bytes: previous?.snapshot.bytes ?? [])
        let chosen = try await Self.first(
            (ByteBuffer, Int64).self,
            """
            SELECT s.snapshot, s.covers FROM room_snapshot s
            WHERE s.room = \(room) AND s.held = s.parts
              AND (s.covers > \(Int64(previous?.covers ?? 0))
                   OR (s.snapshot = \(previousSnapshot) AND \(Int64(previous?.position ?? 0)) < s.covers))
              AND NOT EXISTS (
                SELECT 1 FROM room_author a
                WHERE a.room = s.room AND a.seen_at >= \(horizon)
                  AND NOT EXISTS (
                    SELECT 1 FROM snapshot_check c
                    WHERE c.room = s.room AND c.snapshot = s.snapshot AND c.replica = a.replica))
            ORDER BY s.covers DESC LIMIT 1
            """,
            on: connection,
            logger: logger
        )
        guard let chosen, let snapshot = SnapshotID(bytes: Array(chosen.0.readableBytesView)) else { return nil }
        let covers = UInt64(chosen.1)
        // No further than any device present holds.
        let lowest =
            try await Self.first(
                Int64?.self,
                "SELECT min(position) FROM device_watermark WHERE room = \(room) AND seen_at >= \(horizon)",
                on: connection,
                logger: logger
            ) ?? nil
        guard
            let through = PackLog.compactionFloor(
                snapshot: snapshot,
                covers: covers,
                lowestWatermark: lowest,
                previous: previous,
                overreaching: overreaching
            )
        else { return nil }
        var dropped = (packs: 0, bytes: UInt64(0))
        let endOffset = try await Self.offset(room: room, after: through, on: connection, logger: logger)
        if through > (previous?.position ?? 0) {
            let before = Int64(previous?.position ?? 0)
            let row = try await Self.first(
                (Int64, Int64).self,
                """
                WITH gone AS (
                    DELETE FROM pack WHERE room = \(room) AND position > \(before) AND position <= \(Int64(through))
                    RETURNING octet_length(bytes) AS size)
                SELECT count(*)::bigint, coalesce(sum(size), 0)::bigint FROM gone
                """,
                on: connection,
                logger: logger
            )
            dropped = (Int(row?.0 ?? 0), UInt64(row?.1 ?? 0))
        }
        // Older snapshots go: the one kept stands for more.
        try await connection.query(
            """
            DELETE FROM snapshot_part t USING room_snapshot s
            WHERE t.room = \(room) AND s.room = t.room AND t.snapshot = s.snapshot AND s.covers < \(Int64(covers))
            """,
            logger: logger
        )
        try await connection.query(
            """
            DELETE FROM snapshot_check t USING room_snapshot s
            WHERE t.room = \(room) AND s.room = t.room AND t.snapshot = s.snapshot AND s.covers < \(Int64(covers))
            """,
            logger: logger
        )
        try await connection.query(
            "DELETE FROM room_snapshot WHERE room = \(room) AND covers < \(Int64(covers))",
            logger: logger
        )
        try await connection.query(
            """
            INSERT INTO room_floor (room, position, end_offset, snapshot, covers)
            VALUES (\(room), \(Int64(through)), \(Int64(endOffset)), \(Self.bytes(snapshot.bytes)), \(Int64(covers)))
            ON CONFLICT (room) DO UPDATE SET position = excluded.position, end_offset = excluded.end_offset,
                snapshot = excluded.snapshot, covers = excluded.covers
            """,
            logger: logger
        )
        return PackLog.Compaction(room: room, floor: through, packsDropped: dropped.packs, bytesDropped: dropped.bytes)
    }
}
