package import InkwellStore
import Logging
import NIOCore
import PostgresNIO

/// Rooms' capabilities and blobs in PostgreSQL, with the SQLite log's rules (PackLog+Access.swift,
/// PackLog+Blobs.swift).
///
/// Access is read from the database on every subscribe, not cached as the SQLite log does: another node
/// may rotate a room's links at any moment, and a cache here would let a replaced link in until it
/// was told. The read is one lookup by primary key.
extension PostgresPackLog {
    package func access(room: String) async throws -> RoomAccess? {
        try await counting { [self] in
            try await client.withConnection { connection in
                try await Self.access(room: room, on: connection, logger: logger)
            }
        }
    }

    package func register(room: String, hashes: RoomAccess.Hashes) async throws -> RoomAccess.Registration {
        try await counting { [self] in
            try await client.withTransaction(logger: logger) { connection in
                // The room's row is taken by the first to insert it; the others read what it holds.
                let inserted = try await Self.first(
                    Int.self,
                    """
                    INSERT INTO room_access (room, admin_hash, edit_hash, view_hash)
                    SELECT \(room), \(Self.bytes(hashes.admin)), \(Self.bytes(hashes.edit)), \(Self.bytes(hashes.view))
                    WHERE NOT EXISTS (SELECT 1 FROM room_head WHERE room = \(room) AND head > 0)
                    ON CONFLICT DO NOTHING RETURNING 1
                    """,
                    on: connection,
                    logger: logger
                )
                if inserted != nil { return .created }
                switch try await Self.access(room: room, on: connection, logger: logger) {
                case .guarded(let stored):
                    return RoomAccess.same(stored.admin, hashes.admin) ? .alreadyRegistered : .taken
                case .open, nil:
                    return .taken
                }
            }
        }
    }

    package func rotate(
        room: String,
        adminHash: [UInt8],
        editHash: [UInt8],
        viewHash: [UInt8]
    ) async throws -> RoomAccess.Rotation {
        try await counting { [self] in
            try await client.withTransaction(logger: logger) { connection in
                let row = try await Self.first(
                    (ByteBuffer?, ByteBuffer?, ByteBuffer?).self,
                    "SELECT admin_hash, edit_hash, view_hash FROM room_access WHERE room = \(room) FOR UPDATE",
                    on: connection,
                    logger: logger
                )
                guard let row, let admin = row.0, let edit = row.1, let view = row.2,
                    RoomAccess.same(Array(admin.readableBytesView), adminHash)
                else { return .refused }
                var hashes = RoomAccess.Hashes(
                    admin: Array(admin.readableBytesView),
                    edit: Array(edit.readableBytesView),
                    view: Array(view.readableBytesView)
                )
                let replaced = hashes.rotate(edit: editHash, view: viewHash)
                try await connection.query(
                    """
                    UPDATE room_access SET edit_hash = \(Self.bytes(hashes.edit)), view_hash = \(Self.bytes(hashes.view))
                    WHERE room = \(room)
                    """,
                    logger: logger
                )
                return .rotated(replaced: replaced)
            }
        }
    }

    /// A room's row, or for a room with none, `.open` when it holds packs and nil when it does not exist.
    static func access(room: String, on connection: PostgresConnection, logger: Logger) async throws -> RoomAccess? {
        let row = try await first(
            (ByteBuffer?, ByteBuffer?, ByteBuffer?).self,
            "SELECT admin_hash, edit_hash, view_hash FROM room_access WHERE room = \(room)",
            on: connection,
            logger: logger
        )
        guard let row else {
            let hasPacks = try await first(
                Bool.self,
                "SELECT EXISTS (SELECT 1 FROM room_head WHERE room = \(room) AND head > 0)",
                on: connection,
                logger: logger
            )
            return hasPacks == true ? .open : nil
        }
        guard let admin = row.0, let edit = row.1, let view = row.2 else { return .open }
        return .guarded(
            RoomAccess.Hashes(
                admin: Array(admin.readableBytesView),
                edit: Array(edit.readableBytesView),
                view: Array(view.readableBytesView)
            )
        )
    }

    // MARK: Blobs

    package func blobs(room: String, hash: BlobHash) async throws -> PackLog.RoomBlobs {
        try await counting { [self] in
            try await readSnapshot { connection in
                PackLog.RoomBlobs(
                    recordedSize: try await Self.recordedSize(room: room, hash: hash, on: connection, logger: logger),
                    chargedBytes: try await Self.chargedBytes(room: room, on: connection, logger: logger)
                )
            }
        }
    }

    package func blobSize(room: String, hash: BlobHash) async throws -> Int? {
        try await counting { [self] in
            try await client.withConnection { connection in
                try await Self.recordedSize(room: room, hash: hash, on: connection, logger: logger)
            }
        }
    }

    package func blobBytes(room: String) async throws -> Int {
        try await counting { [self] in
            try await client.withConnection { connection in
                try await Self.chargedBytes(room: room, on: connection, logger: logger)
            }
        }
    }

    package func recordBlob(room: String, hash: BlobHash, size: Int, quota: Int) async throws -> PackLog.BlobRecording {
        try await counting { [self] in
            try await client.withTransaction(logger: logger) { connection in
                // Uploads to one room, on any node, take turns: of those racing for its last bytes, only
                // those that fit are recorded.
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(Self.blobLock), hashtext(\(room)))",
                    logger: logger
                )
                if let recorded = try await Self.recordedSize(room: room, hash: hash, on: connection, logger: logger) {
                    return .alreadyRecorded(size: recorded)
                }
                let charged = try await Self.chargedBytes(room: room, on: connection, logger: logger)
                guard PackLog.charge(forBlobOf: size) <= quota - charged else {
                    return .overQuota(chargedBytes: charged)
                }
                try await connection.query(
                    "INSERT INTO room_blob (room, hash, size) VALUES (\(room), \(Self.bytes(hash.digest)), \(Int64(size)))",
                    logger: logger
                )
                return .recorded
            }
        }
    }

    package func forgetBlob(room: String, hash: BlobHash) async throws {
        try await counting { [self] in
            try await client.query(
                "DELETE FROM room_blob WHERE room = \(room) AND hash = \(Self.bytes(hash.digest))",
                logger: logger
            )
        }
    }

    /// The first key of the advisory locks uploads to a room take (the second is the room's hash).
    static let blobLock: Int32 = 0x696E_6B01

    private static func recordedSize(
        room: String,
        hash: BlobHash,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Int? {
        try await first(
            Int64.self,
            "SELECT size FROM room_blob WHERE room = \(room) AND hash = \(bytes(hash.digest))",
            on: connection,
            logger: logger
        ).map { Int($0) }
    }

    private static func chargedBytes(
        room: String,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws
        -> Int
    {
        let charged = try await first(
            Int64.self,
            """
            SELECT coalesce(sum(greatest(size, \(Int64(PackLog.minimumBlobCharge)))), 0)::bigint
            FROM room_blob WHERE room = \(room)
            """,
            on: connection,
            logger: logger
        )
        return Int(charged ?? 0)
    }
}
