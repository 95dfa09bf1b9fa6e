package import InkwellSync
package import InkwellWire
import Logging
package import NIOCore
import PostgresNIO

/// Reading rooms' packs and where they stand: the same answers as the SQLite log's reads
/// (PackLog.swift, PackLog+CatchUp.swift), each from one snapshot of the database.
extension PostgresPackLog {
    package func roomNames() async throws -> [String] {
        try await counting { [self] in
            let rows = try await client.query(
                "SELECT room FROM room_head UNION SELECT room FROM room_snapshot ORDER BY 1",
                logger: logger
            )
            var names: [String] = []
            for try await (room) in rows.decode(String.self) { names.append(room) }
            return names
        }
    }

    package func head(room: String) async throws -> UInt64 {
        try await counting { [self] in
            try await client.withConnection { connection in
                UInt64(try await Self.extent(room: room, on: connection, logger: logger).head)
            }
        }
    }

    package func heads(rooms: [String]) async throws -> [String: UInt64] {
        try await counting { [self] in
            var heads: [String: UInt64] = [:]
            let rows = try await client.query(
                "SELECT room, head FROM room_head WHERE room = ANY(\(rooms)::text[]) AND head > 0",
                logger: logger
            )
            for try await (room, head) in rows.decode((String, Int64).self) { heads[room] = UInt64(head) }
            return heads
        }
    }

    package func packs(room: String, after position: UInt64, maximumBytes: Int) async throws -> [StoredPack] {
        try await counting { [self] in
            var packs: [StoredPack] = []
            var total = 0
            let rows = try await client.query(
                """
                SELECT position, bytes FROM pack WHERE room = \(room) AND position > \(Int64(clamping: position))
                ORDER BY position
                """,
                logger: logger
            )
            for try await (at, bytes) in rows.decode((Int64, ByteBuffer).self) {
                if !packs.isEmpty, total + bytes.readableBytes > maximumBytes { break }
                total += bytes.readableBytes
                packs.append(StoredPack(serverSeq: UInt64(at), bytes: Array(bytes.readableBytesView)))
            }
            return packs
        }
    }

    package func packs(after positions: [String: UInt64], maximumBytes: Int) async throws -> [String: [StoredPack]] {
        guard !positions.isEmpty else { return [:] }
        return try await counting { [self] in
            let rooms = positions.keys.sorted()
            let afters = rooms.map { Int64(clamping: positions[$0]!) }
            var packs: [String: [StoredPack]] = [:]
            var total = 0
            let rows = try await client.query(
                """
                SELECT p.room, p.position, p.bytes
                FROM unnest(\(rooms)::text[], \(afters)::bigint[]) AS w(room, after)
                JOIN pack p ON p.room = w.room AND p.position > w.after
                ORDER BY p.room, p.position
                """,
                logger: logger
            )
            for try await (room, position, bytes) in rows.decode((String, Int64, ByteBuffer).self) {
                if total > 0, total + bytes.readableBytes > maximumBytes { break }
                total += bytes.readableBytes
                packs[room, default: []].append(
                    StoredPack(serverSeq: UInt64(position), bytes: Array(bytes.readableBytesView))
                )
            }
            return packs
        }
    }

    package func progress(room: String, after position: UInt64) async throws -> (head: UInt64, bytesAfter: UInt64) {
        try await counting { [self] in
            try await readSnapshot { connection in
                try await Self.progress(room: room, after: position, on: connection, logger: logger)
            }
        }
    }

    package func bytes(room: String) async throws -> UInt64 {
        try await counting { [self] in
            try await readSnapshot { connection in
                let (_, end) = try await Self.extent(room: room, on: connection, logger: logger)
                let floor = try await Self.floor(room: room, on: connection, logger: logger)
                return end - (floor?.endOffset ?? 0)
            }
        }
    }

    package func catchUp(
        _ requests: [PackLog.CatchUpRequest],
        maximumBytes: Int,
        allocator: ByteBufferAllocator
    ) async throws -> [PackLog.CatchUpRead] {
        try await counting { [self] in
            try await readSnapshot { connection in
                var reads: [PackLog.CatchUpRead] = []
                var total = 0
                for request in requests {
                    // The sizes first (PostgreSQL reads a value's length without its bytes), so that the
                    // frame's buffer is allocated once at its size.
                    var count = 0
                    var packBytes = 0
                    var full = false
                    let sizes = try await connection.query(
                        """
                        SELECT octet_length(bytes) FROM pack
                        WHERE room = \(request.room) AND position > \(Int64(clamping: request.after))
                          AND position NOT IN (SELECT position FROM snapshot_part
                                               WHERE room = \(request.room) AND snapshot = \(Self.skipped(request)))
                        ORDER BY position
                        """,
                        logger: logger
                    )
                    for try await size in sizes.decode(Int.self) {
                        // At least one pack in every read.
                        if total + packBytes > 0, total + packBytes + size > maximumBytes {
                            full = true
                            break
                        }
                        count += 1
                        packBytes += size
                    }
                    // A room whose first pack does not fit waits for the next read, its progress with it.
                    if full, count == 0 { break }
                    var read = PackLog.CatchUpRead(room: request.room)
                    if count > 0 {
                        var frame = PackLog.CatchUpFrame(
                            room: request.room,
                            packs: count,
                            packBytes: packBytes,
                            allocator: allocator
                        )
                        let rows = try await connection.query(
                            """
                            SELECT position, bytes FROM pack
                            WHERE room = \(request.room) AND position > \(Int64(clamping: request.after))
                              AND position NOT IN (SELECT position FROM snapshot_part
                                                   WHERE room = \(request.room) AND snapshot = \(Self.skipped(request)))
                            ORDER BY position LIMIT \(count)
                            """,
                            logger: logger
                        )
                        for try await (position, bytes) in rows.decode((Int64, ByteBuffer).self) {
                            frame.append(serverSeq: UInt64(position), count: bytes.readableBytes) { buffer in
                                var bytes = bytes
                                buffer.writeBuffer(&bytes)
                            }
                        }
                        read.frame = frame
                    }
                    total += packBytes
                    if request.withProgress {
                        read.progress = try await Self.progress(
                            room: request.room,
                            after: request.after,
                            on: connection,
                            logger: logger
                        )
                    }
                    reads.append(read)
                    if full { break }
                }
                return reads
            }
        }
    }

    /// The snapshot whose parts a request leaves out, or an id no part has.
    private static func skipped(_ request: PackLog.CatchUpRequest) -> ByteBuffer {
        ByteBuffer(bytes: request.skipping?.bytes ?? [])
    }

    // MARK: Watermarks

    package func setWatermark(room: String, device: ReplicaID, to position: UInt64) async throws {
        try await counting { [self] in
            try await client.withConnection { connection in
                try await Self.setWatermarks(
                    [PackLog.Watermark(room: room, device: device, position: position)],
                    now: now,
                    on: connection,
                    logger: logger
                )
            }
        }
    }

    package func watermark(room: String, device: ReplicaID) async throws -> UInt64 {
        try await counting { [self] in
            let rows = try await client.query(
                "SELECT position FROM device_watermark WHERE room = \(room) AND device = \(Self.bytes(device.bytes))",
                logger: logger
            )
            return UInt64(try await rows.decode(Int64.self).first { _ in true } ?? 0)
        }
    }

    // MARK: Extents

    /// The room's head and where its bytes end: (0, 0) for a room with no packs.
    static func extent(
        room: String,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> (head: UInt64, end: UInt64) {
        let row = try await first(
            (Int64, Int64).self,
            "SELECT head, end_offset FROM room_head WHERE room = \(room)",
            on: connection,
            logger: logger
        )
        return row.map { (UInt64($0.0), UInt64($0.1)) } ?? (0, 0)
    }

    /// Where the room's bytes stand after the pack at `position` (0 before the first): the end of the last
    /// pack kept at or before it, or of the floor when the packs there were dropped.
    static func offset(
        room: String,
        after position: UInt64,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> UInt64 {
        guard position > 0 else { return 0 }
        let at = Int64(clamping: position)
        let offset = try await first(
            Int64.self,
            """
            SELECT greatest(
                coalesce((SELECT end_offset FROM pack WHERE room = \(room) AND position <= \(at)
                          ORDER BY position DESC LIMIT 1), 0),
                coalesce((SELECT end_offset FROM room_floor WHERE room = \(room) AND position <= \(at)), 0))
            """,
            on: connection,
            logger: logger
        )
        return UInt64(offset ?? 0)
    }

    static func progress(
        room: String,
        after position: UInt64,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> (head: UInt64, bytesAfter: UInt64) {
        let (head, end) = try await extent(room: room, on: connection, logger: logger)
        let offset = try await offset(room: room, after: min(position, head), on: connection, logger: logger)
        // The extents only grow along a room: an offset past its end is a damaged table, not a room.
        guard offset <= end else { throw Failure.damaged("a pack's extent lies past its room's end") }
        return (head, end - offset)
    }
}
