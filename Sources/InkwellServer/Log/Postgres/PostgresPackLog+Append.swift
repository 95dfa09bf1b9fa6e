import Foundation
import InkwellSync
package import InkwellWire
import Logging
import NIOCore
import PostgresNIO

/// Group commit into PostgreSQL: a batch of pushes in one transaction, whatever its size, so that a commit
/// costs one WAL flush. A batch of plain pushes is one statement (`inkwell_append`); one that carries a
/// snapshot part, whose checks read the room's snapshots, takes a few: the rooms' rows locked and the
/// packs already stored looked up in one, the writes in another.
extension PostgresPackLog {
    /// Stores a batch of pushes in one transaction and returns what became of each, in order, with the
    /// same outcomes as ``PackLog/append(_:watermarks:)``. Nothing is acknowledged before the commit
    /// returns.
    package func append(
        _ pushes: [PackLog.Push],
        watermarks: [PackLog.Watermark]
    ) async throws
        -> [PackLog.Appended]
    {
        guard !pushes.isEmpty || !watermarks.isEmpty else { return [] }
        if pushes.allSatisfy({ $0.snapshot == nil }) {
            return try await appendInOneStatement(pushes, watermarks: watermarks)
        }
        return try await counting { [self] in
            try await client.withTransaction(logger: logger) { connection in
                var batch = try await Batch(pushes, on: connection, logger: logger)
                var outcomes: [PackLog.Appended] = []
                outcomes.reserveCapacity(pushes.count)
                for push in pushes {
                    outcomes.append(try await append(push, to: &batch, on: connection))
                }
                // The watermarks after the rooms' rows: every transaction that takes both kinds of lock
                // takes them so.
                try await batch.flush(watermarks: watermarks, now: now, on: connection, logger: logger)
                return outcomes
            }
        }
    }

    /// A commit of pushes that carry no snapshot part: one call of `inkwell_append` (PostgresSchema.swift),
    /// which takes the rooms' rows, decides each push as ``append(_:to:on:)`` does and writes, with no
    /// round trip to this node while it holds the rows: commits of several nodes to the same rooms take
    /// turns for only as long as PostgreSQL works on each.
    private func appendInOneStatement(
        _ pushes: [PackLog.Push],
        watermarks: [PackLog.Watermark]
    ) async throws -> [PackLog.Appended] {
        try await counting { [self] in
            let rows = try await client.query(
                """
                SELECT * FROM inkwell_append(
                    \(pushes.map(\.room))::text[], \(pushes.map { ByteBuffer(bytes: $0.pack.bytes) })::bytea[],
                    \(pushes.map { ByteBuffer(bytes: $0.bytes) })::bytea[], \(pushes.map { $0.origin != nil })::boolean[],
                    \(pushes.map { Int64(bitPattern: $0.origin ?? 0) })::bigint[],
                    \(pushes.map { ByteBuffer(bytes: $0.author?.bytes ?? []) })::bytea[],
                    \(Int64(clamping: maximumRoomBytes)), \(now),
                    \(watermarks.map(\.room))::text[], \(watermarks.map { ByteBuffer(bytes: $0.device.bytes) })::bytea[],
                    \(watermarks.map { Int64(clamping: $0.position) })::bigint[])
                """,
                logger: logger
            )
            var outcomes: [PackLog.Appended] = []
            outcomes.reserveCapacity(pushes.count)
            for try await (outcome, position) in rows.decode((Int16, Int64).self) {
                switch outcome {
                case 0 where position >= 1: outcomes.append(.stored(UInt64(position)))
                case 1: outcomes.append(.conflict)
                case 2: outcomes.append(.roomFull)
                default: throw Failure.damaged("inkwell_append answered \(outcome) at \(position)")
                }
            }
            guard outcomes.count == pushes.count else {
                throw Failure.damaged("inkwell_append answered \(outcomes.count) of \(pushes.count) pushes")
            }
            return outcomes
        }
    }

    /// One push of the batch: decided against what the batch and the database hold.
    private func append(
        _ push: PackLog.Push,
        to batch: inout Batch,
        on connection: PostgresConnection
    ) async throws -> PackLog.Appended {
        if let origin = push.origin, batch.refusedFull.contains(Batch.Refused(room: push.room, origin: origin)) {
            return .roomFull
        }
        let key = Batch.Key(room: push.room, pack: push.pack)
        if let stored = batch.stored[key] {
            // The id is a hash of the bytes: equal ids with unequal bytes are a collision or a damaged row.
            guard stored.bytes == push.bytes else { return .conflict }
            if let author = push.author { batch.see(author, in: push.room) }
            return .stored(stored.position)
        }
        if let cover = push.snapshot, let author = push.author {
            // A part's checks read the room's snapshots and extents: what the batch holds goes in first.
            try await batch.flush(now: now, on: connection, logger: logger)
            let room = batch.rooms[push.room]!
            if let refusal = try await refusal(
                of: cover,
                by: author,
                room: push.room,
                head: room.head,
                end: room.end,
                on: connection
            ) {
                return .snapshotRefused(refusal)
            }
            guard let position = batch.take(push, maximumRoomBytes: maximumRoomBytes) else { return .roomFull }
            try await batch.flush(now: now, on: connection, logger: logger)
            try await recordPart(
                cover,
                by: author,
                room: push.room,
                position: position,
                bytes: push.bytes.count,
                on: connection
            )
            return .stored(position)
        }
        guard let position = batch.take(push, maximumRoomBytes: maximumRoomBytes) else { return .roomFull }
        return .stored(position)
    }

    /// A commit's state: its rooms' rows (locked), the packs it stored or found, and what it has yet to write.
    struct Batch {
        struct Key: Hashable {
            let room: String
            let pack: PackID
        }

        struct Refused: Hashable {
            let room: String
            let origin: UInt64
        }

        /// A room's row as this commit has moved it.
        struct Room {
            var head: UInt64
            var end: UInt64
            let floorOffset: UInt64
            /// Whether the commit changed it (its row is written back).
            var changed = false

            mutating func take(_ push: PackLog.Push) {
                head += 1
                end += UInt64(push.bytes.count)
                changed = true
            }
        }

        struct Pending {
            let push: PackLog.Push
            let position: UInt64
            let end: UInt64
        }

        var rooms: [String: Room] = [:]
        /// Packs of the batch's ids already stored, and those this batch stored: a push repeated gets the
        /// first one's answer.
        var stored: [Key: (position: UInt64, bytes: [UInt8])] = [:]
        /// Rooms and connections a push of which this commit refused as full: their later pushes are
        /// refused too, so that no author's change is stored past an earlier one the room refused.
        var refusedFull: Set<Refused> = []
        /// Packs to insert.
        var pending: [Pending] = []
        /// Authors seen pushing, per room.
        private var seen: [String: Set<ReplicaID>] = [:]

        /// Locks the rows of the batch's rooms (made first for rooms new to the log), in ascending order of
        /// room, and looks up which of the batch's packs are stored already: one round trip
        /// (`inkwell_take_rooms`, PostgresSchema.swift), which every commit's locks wait behind.
        init(_ pushes: [PackLog.Push], on connection: PostgresConnection, logger: Logger) async throws {
            let names = Set(pushes.map(\.room)).sorted()
            guard !names.isEmpty else { return }
            let keys = Array(Set(pushes.map { Key(room: $0.room, pack: $0.pack) }))
            let rows = try await connection.query(
                """
                SELECT * FROM inkwell_take_rooms(\(names)::text[], \(keys.map(\.room))::text[],
                    \(keys.map { ByteBuffer(bytes: $0.pack.bytes) })::bytea[])
                """,
                logger: logger
            )
            typealias Row = (String, Int64?, Int64?, Int64?, ByteBuffer?, Int64?, ByteBuffer?)
            for try await (room, head, end, floor, id, position, bytes) in rows.decode(Row.self) {
                if let head, let end, let floor {
                    rooms[room] = Room(head: UInt64(head), end: UInt64(end), floorOffset: UInt64(floor))
                } else if let id, let position, let bytes {
                    guard let pack = PackID(bytes: Array(id.readableBytesView)) else {
                        throw Failure.damaged("a stored pack's id is not a pack id")
                    }
                    stored[Key(room: room, pack: pack)] = (UInt64(position), Array(bytes.readableBytesView))
                } else {
                    throw Failure.damaged("a room's head row or a stored pack is incomplete")
                }
            }
            guard rooms.count == names.count else { throw Failure.damaged("a room's head row is missing") }
        }

        /// Gives `push` its room's next position, to be inserted with the batch, unless it would take the
        /// room past `maximumRoomBytes`: then it is refused, and the later pushes of its connection too.
        ///
        /// - Returns: the position, or nil when the room is full.
        mutating func take(_ push: PackLog.Push, maximumRoomBytes: UInt64) -> UInt64? {
            var room = rooms[push.room]!
            guard room.end - room.floorOffset + UInt64(push.bytes.count) <= maximumRoomBytes else {
                if let origin = push.origin { refusedFull.insert(Refused(room: push.room, origin: origin)) }
                return nil
            }
            room.take(push)
            rooms[push.room] = room
            stored[Key(room: push.room, pack: push.pack)] = (room.head, push.bytes)
            pending.append(Pending(push: push, position: room.head, end: room.end))
            if let author = push.author { see(author, in: push.room) }
            return room.head
        }

        mutating func see(_ author: ReplicaID, in room: String) {
            seen[room, default: []].insert(author)
        }

        /// Writes what the batch holds, in one statement: its new packs, its rooms' rows, the authors it saw
        /// and, at the end of the commit, `watermarks`. The rooms' rows are this commit's already, so the
        /// statement waits for no other commit but on the watermarks' and authors' rows, which every commit
        /// takes in one order (room, then replica), so that commits on several nodes never wait on each
        /// other in a cycle.
        mutating func flush(
            watermarks: [PackLog.Watermark] = [],
            now: Int64,
            on connection: PostgresConnection,
            logger: Logger
        ) async throws {
            let changed = rooms.filter(\.value.changed).sorted { $0.key < $1.key }
            guard !pending.isEmpty || !changed.isEmpty || !seen.isEmpty || !watermarks.isEmpty else { return }
            let authors = seen.flatMap { room, replicas in replicas.map { (room: room, author: $0) } }
            try await connection.query(
                """
                WITH new_pack AS (
                    INSERT INTO pack (room, position, pack_id, bytes, end_offset)
                    SELECT * FROM unnest(
                        \(pending.map(\.push.room))::text[], \(pending.map { Int64($0.position) })::bigint[],
                        \(pending.map { ByteBuffer(bytes: $0.push.pack.bytes) })::bytea[],
                        \(pending.map { ByteBuffer(bytes: $0.push.bytes) })::bytea[],
                        \(pending.map { Int64($0.end) })::bigint[])
                ), moved AS (
                    UPDATE room_head h SET head = c.head, end_offset = c.end_offset
                    FROM unnest(\(changed.map(\.key))::text[], \(changed.map { Int64($0.value.head) })::bigint[],
                        \(changed.map { Int64($0.value.end) })::bigint[]) AS c(room, head, end_offset)
                    WHERE h.room = c.room
                )
                SELECT inkwell_see(\(authors.map(\.room))::text[],
                        \(authors.map { ByteBuffer(bytes: $0.author.bytes) })::bytea[], \(now)),
                    inkwell_set_watermarks(\(watermarks.map(\.room))::text[],
                        \(watermarks.map { ByteBuffer(bytes: $0.device.bytes) })::bytea[],
                        \(watermarks.map { Int64(clamping: $0.position) })::bigint[], \(now))
                """,
                logger: logger
            )
            pending.removeAll()
            for (room, _) in changed { rooms[room]!.changed = false }
            seen.removeAll()
        }
    }

    /// Notes that these authors pushed to (or checked a snapshot of) these rooms at `now`.
    static func see(
        _ authors: [(room: String, author: ReplicaID)],
        now: Int64,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        guard !authors.isEmpty else { return }
        try await connection.query(
            """
            SELECT inkwell_see(\(authors.map(\.room))::text[],
                \(authors.map { ByteBuffer(bytes: $0.author.bytes) })::bytea[], \(now))
            """,
            logger: logger
        )
    }

    /// Records where devices stand, the newest per device and room; a watermark only moves forward.
    static func setWatermarks(
        _ watermarks: [PackLog.Watermark],
        now: Int64,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        guard !watermarks.isEmpty else { return }
        try await connection.query(
            """
            SELECT inkwell_set_watermarks(\(watermarks.map(\.room))::text[],
                \(watermarks.map { ByteBuffer(bytes: $0.device.bytes) })::bytea[],
                \(watermarks.map { Int64(clamping: $0.position) })::bigint[], \(now))
            """,
            logger: logger
        )
    }
}
