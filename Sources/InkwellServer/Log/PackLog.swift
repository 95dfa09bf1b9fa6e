import Foundation
import GRDB
import InkwellStore
public import InkwellSync
public import InkwellWire
public import Logging
import NIOCore
import Synchronization

/// The server's durable log of packs: per room, in the order they were committed, each at a server
/// position (1, 2, 3, …) that never changes. The server stores packs without opening them.
///
/// Pushing a pack again, even after a restart, returns its first position and stores nothing.
/// ``append(_:)`` commits a whole batch in one transaction, so under load many pushes share one
/// fsync (WAL, `synchronous=FULL`, read back at open); a push is acknowledged only after the
/// transaction that holds it has committed. Once a commit has failed, or a read found the file unreadable,
/// the log takes no more commits (``fault``, in PackLog+Faults.swift).
public final class PackLog: Sendable {
    /// One pushed pack.
    public struct Push: Hashable, Sendable {
        public var room: String
        public var pack: PackID
        public var bytes: [UInt8]
        /// Whoever signed it: seen in the room now (see PackLog+Snapshots.swift).
        public var author: ReplicaID?
        /// What it claims, when it is a part of a room snapshot.
        public var snapshot: SnapshotCover?
        /// The connection it came on, when the caller tells: once a commit refuses a push of a room from one
        /// connection for being full, it refuses the later pushes of that room from the connection too, so
        /// that no author's change is stored past an earlier one the room refused.
        public var origin: UInt64?

        public init(
            room: String,
            pack: PackID,
            bytes: [UInt8],
            author: ReplicaID? = nil,
            snapshot: SnapshotCover? = nil,
            origin: UInt64? = nil
        ) {
            self.room = room
            self.pack = pack
            self.bytes = bytes
            self.author = author
            self.snapshot = snapshot
            self.origin = origin
        }
    }

    /// What became of one push in a commit.
    public enum Appended: Hashable, Sendable {
        /// Stored at this position, or already stored there with the same bytes.
        case stored(UInt64)
        /// Its id is already stored in the room with other bytes (a SHA-256 collision, or a stored pack
        /// that no longer matches its id): refused, and the stored pack stays as it is.
        case conflict
        /// Storing it would take the room past ``PackLog/maximumRoomBytes``: refused, nothing stored.
        case roomFull
        /// A snapshot part the log does not keep, and why: refused, nothing stored.
        case snapshotRefused(String)

        /// The position, when stored.
        public var position: UInt64? {
            if case .stored(let position) = self { position } else { nil }
        }
    }

    /// Where a device said it stands in a room.
    public struct Watermark: Hashable, Sendable {
        public var room: String
        public var device: ReplicaID
        public var position: UInt64

        public init(room: String, device: ReplicaID, position: UInt64) {
            self.room = room
            self.device = device
            self.position = position
        }
    }

    let pool: DatabasePool
    /// The same file, as the asynchronous calls reach it.
    let database: LogDatabase
    /// The fault that stopped the log's commits, once there is one.
    let failure = Mutex<StorageFault?>(nil)
    /// Told of every storage error, by kind, and of the fault.
    let metrics: ServerMetrics?
    let logger: Logger
    /// Rooms' access as last read or written: looked up on every subscribe, changed only through this log.
    let accessCache = Mutex(AccessCache())
    /// The most pack bytes one room may hold; a push past it is ``Appended/roomFull``.
    public let maximumRoomBytes: UInt64
    /// How many bytes a room stores after its newest snapshot, at least, before it takes another
    /// (``PackLog/minimumBytesBetweenSnapshots`` but in a harness whose rooms are small).
    let bytesBetweenSnapshots: UInt64
    /// When authors and devices were last seen, for compaction.
    let wallClock: any WallClock

    /// How much of the log's file each connection maps into memory: none. Mapped, a page that cannot be
    /// read (an I/O error, a file cut short) raises SIGBUS in whichever thread touches it and ends the
    /// process; read with `pread`, it is an error SQLite reports and ``fault`` records. The map saved a
    /// `pread` per overflow page of a catch-up (BENCHMARKS.md, "Storage faults", gives the cost).
    static let mappedBytes = 0

    /// Opens or creates the log at `path`. Storage errors are counted in `metrics`, and the fault that
    /// stops the log is logged to `logger`, once.
    public convenience init(
        path: String,
        maximumRoomBytes: UInt64 = .max,
        wallClock: any WallClock = SystemWallClock(),
        metrics: ServerMetrics? = nil,
        logger: Logger = Logger(label: "inkwell.pack-log")
    ) throws {
        try self.init(
            path: path,
            maximumRoomBytes: maximumRoomBytes,
            wallClock: wallClock,
            metrics: metrics,
            logger: logger,
            runsCallsInline: false,
            bytesBetweenSnapshots: Self.minimumBytesBetweenSnapshots
        )
    }

    /// ``init(path:maximumRoomBytes:wallClock:metrics:logger:)``, with the asynchronous calls run on the
    /// caller's thread when `runsCallsInline` is set (``LogDatabase``), and a room's snapshots spaced by
    /// `bytesBetweenSnapshots` at least.
    package init(
        path: String,
        maximumRoomBytes: UInt64,
        wallClock: any WallClock,
        metrics: ServerMetrics?,
        logger: Logger,
        runsCallsInline: Bool,
        bytesBetweenSnapshots: UInt64 = minimumBytesBetweenSnapshots
    ) throws {
        self.maximumRoomBytes = maximumRoomBytes
        self.bytesBetweenSnapshots = bytesBetweenSnapshots
        self.wallClock = wallClock
        self.metrics = metrics
        self.logger = logger
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(Self.mappedBytes)") }
        pool = try DatabasePool(path: path, configuration: configuration)
        database = LogDatabase(pool: pool, runsInline: runsCallsInline)
        try pool.writeWithoutTransaction(Durability.enforce)
        try Self.migrator.migrate(pool)
    }

    /// Closes the file's connections: every later call throws. For a harness that drops a server process
    /// at once, as a power cut does, while tasks of that process still hold its log.
    package func close() throws {
        try pool.close()
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE pack (
                        room TEXT NOT NULL,
                        position INTEGER NOT NULL CHECK (position >= 1),
                        pack_id BLOB NOT NULL CHECK (length(pack_id) = 16),
                        bytes BLOB NOT NULL,
                        PRIMARY KEY (room, position),
                        UNIQUE (room, pack_id)
                    ) WITHOUT ROWID;
                    CREATE TABLE device_watermark (
                        room TEXT NOT NULL,
                        device BLOB NOT NULL CHECK (length(device) = 16),
                        position INTEGER NOT NULL,
                        PRIMARY KEY (room, device)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE server_identity (
                        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                        replica BLOB NOT NULL CHECK (length(replica) = 16)
                    );
                    """
            )
        }
        // Protocol 2 names a pack by the SHA-256 of its bytes (32 bytes). Packs of protocol 1 keep their
        // 16-byte ids and their positions: subscribers' watermarks stay true, and clients keep such
        // unsigned packs aside rather than apply them.
        migrator.registerMigration("v3") { db in
            try db.execute(
                sql: """
                    CREATE TABLE pack_v3 (
                        room TEXT NOT NULL,
                        position INTEGER NOT NULL CHECK (position >= 1),
                        pack_id BLOB NOT NULL CHECK (length(pack_id) IN (16, 32)),
                        bytes BLOB NOT NULL,
                        PRIMARY KEY (room, position),
                        UNIQUE (room, pack_id)
                    ) WITHOUT ROWID;
                    INSERT INTO pack_v3 SELECT room, position, pack_id, bytes FROM pack;
                    DROP TABLE pack;
                    ALTER TABLE pack_v3 RENAME TO pack;
                    """
            )
        }
        // Capabilities: a room is guarded by three hashes, or open (all three NULL). A room with no row
        // is open when it holds packs (see PackLog+Access.swift), so links made before stay working;
        // the rows written here say so explicitly.
        migrator.registerMigration("v4") { db in
            try db.execute(
                sql: """
                    CREATE TABLE room_access (
                        room TEXT PRIMARY KEY NOT NULL,
                        admin_hash BLOB CHECK (admin_hash IS NULL OR length(admin_hash) = 32),
                        edit_hash BLOB CHECK (edit_hash IS NULL OR length(edit_hash) = 32),
                        view_hash BLOB CHECK (view_hash IS NULL OR length(view_hash) = 32),
                        CHECK ((admin_hash IS NULL) = (edit_hash IS NULL) AND (edit_hash IS NULL) = (view_hash IS NULL))
                    ) WITHOUT ROWID;
                    INSERT INTO room_access (room) SELECT DISTINCT room FROM pack;
                    """
            )
        }
        // Blobs belong to rooms: which room holds which blob, and its size for the room's quota
        // (PackLog+Blobs.swift).
        migrator.registerMigration("v5", migrate: createRoomBlobs)
        // Where each pack ends in its room's bytes: a subscriber's bytes behind and a room's size are two
        // lookups, not a sum over the room. A table of its own, so that filling it reads only the packs'
        // lengths and rewrites none of their bytes.
        migrator.registerMigration("v6") { db in
            try db.execute(
                sql: """
                    CREATE TABLE pack_extent (
                        room TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        end_offset INTEGER NOT NULL CHECK (end_offset >= 0),
                        PRIMARY KEY (room, position)
                    ) WITHOUT ROWID;
                    INSERT INTO pack_extent (room, position, end_offset)
                        SELECT room, position, SUM(LENGTH(bytes)) OVER (PARTITION BY room ORDER BY position)
                        FROM pack;
                    """
            )
        }
        // Room snapshots, what they claim and who checked them, the authors and devices seen, and what
        // each room keeps in place of the packs it dropped (PackLog+Snapshots.swift).
        migrator.registerMigration("v7", migrate: createSnapshots)
        return migrator
    }

    /// Stores a batch of pushes in one transaction and returns what became of each, in order. A pack
    /// already in its room keeps its first position; a push whose id is stored with other bytes is
    /// refused (``Appended/conflict``). Nothing is acknowledged before this returns.
    ///
    /// - Complexity: O(k log n) for k pushes into rooms of n packs.
    public func append(_ pushes: [Push]) throws -> [Appended] {
        try committing { try pool.write { db in try self.append(pushes, in: db) } }
    }

    /// ``append(_:)`` without blocking the caller's thread (GRDB runs the transaction on its writer
    /// queue), recording device watermarks in the same transaction.
    public func append(_ pushes: [Push], watermarks: [Watermark] = []) async throws -> [Appended] {
        try await committing {
            let now = wallClock.millisecondsSince1970()
            return try await database.write { db in
                for mark in watermarks {
                    try Self.setWatermark(room: mark.room, device: mark.device, to: mark.position, now: now, in: db)
                }
                return try self.append(pushes, in: db)
            }
        }
    }

    /// ``packs(room:after:maximumBytes:)`` without blocking the caller's thread.
    public func packs(room: String, after position: UInt64, maximumBytes: Int = 4 << 20) async throws -> [StoredPack] {
        try await reading {
            try await database.read { db in
                try Self.packs(room: room, after: position, maximumBytes: maximumBytes, in: db)
            }
        }
    }

    /// ``progress(room:after:)`` without blocking the caller's thread.
    public func progress(room: String, after position: UInt64) async throws -> (head: UInt64, bytesAfter: UInt64) {
        try await reading { try await database.read { db in try Self.progress(room: room, after: position, in: db) } }
    }

    /// The room's newest position (0 for a room with no packs), without blocking the caller's thread. A
    /// read that fails throws: an unreadable room is not an empty one.
    public func roomNames() async throws -> [String] {
        try await reading {
            try await database.read { db in
                try String.fetchAll(
                    db,
                    sql: "SELECT DISTINCT room FROM pack UNION SELECT DISTINCT room FROM room_snapshot ORDER BY 1"
                )
            }
        }
    }

    public func head(room: String) async throws -> UInt64 {
        try await reading {
            try await database.read { db in
                guard
                    let head = try Int64.fetchOne(
                        db,
                        sql: "SELECT IFNULL(MAX(position), 0) FROM pack WHERE room = ?",
                        arguments: [room]
                    )
                else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "no head for the room") }
                return UInt64(head)
            }
        }
    }

    /// ``setWatermark(room:device:to:)`` without blocking the caller's thread.
    public func setWatermark(room: String, device: ReplicaID, to position: UInt64) async throws {
        try await committing {
            try await database.write { db in try self.setWatermark(room: room, device: device, to: position, in: db) }
        }
    }

    /// The server's own replica id, made when the log was created and kept for its life.
    public func serverID() throws -> ReplicaID {
        try pool.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO server_identity (singleton, replica) VALUES (1, ?)",
                arguments: [Data(ReplicaID.random().bytes)]
            )
            let stored = try Data.fetchOne(db, sql: "SELECT replica FROM server_identity")
            guard let stored, let replica = ReplicaID(bytes: stored) else {
                throw DatabaseError(message: "server_identity holds no valid replica id")
            }
            return replica
        }
    }

    private func append(_ pushes: [Push], in db: Database) throws -> [Appended] {
        let now = Int64(clamping: wallClock.millisecondsSince1970())
        // Rooms and connections a push of which this commit refused as full.
        struct Refused: Hashable {
            let room: String
            let origin: UInt64
        }
        var refusedFull: Set<Refused> = []
        return try pushes.map { push in
            if let origin = push.origin, refusedFull.contains(Refused(room: push.room, origin: origin)) {
                return .roomFull
            }
            let appended = try append(push, now: now, in: db)
            if appended == .roomFull, let origin = push.origin {
                refusedFull.insert(Refused(room: push.room, origin: origin))
            }
            if let author = push.author, appended.position != nil {
                try Self.see(author: author, room: push.room, now: now, in: db)
            }
            return appended
        }
    }

    private func append(_ push: Push, now: Int64, in db: Database) throws -> Appended {
        let id = Data(push.pack.bytes)
        if let existing = try Row.fetchOne(
            db,
            sql: "SELECT position, bytes FROM pack WHERE room = ? AND pack_id = ?",
            arguments: [push.room, id]
        ) {
            // The id is a hash of the bytes, so equal ids with unequal bytes mean a collision or a
            // damaged row: either way, what is stored stays and the push is refused.
            guard (existing["bytes"] as Data).elementsEqual(push.bytes) else { return .conflict }
            return .stored(UInt64(existing["position"] as Int64))
        }
        if let cover = push.snapshot, let author = push.author,
            let refusal = try Self.refusal(
                of: cover,
                by: author,
                room: push.room,
                spacing: bytesBetweenSnapshots,
                in: db
            )
        {
            return .snapshotRefused(refusal)
        }
        let (head, end) = try Self.extent(room: push.room, in: db)
        let kept = end - (try Self.floorOffset(room: push.room, in: db))
        guard kept + UInt64(push.bytes.count) <= maximumRoomBytes else { return .roomFull }
        try db.execute(
            sql: "INSERT INTO pack (room, position, pack_id, bytes) VALUES (?, ?, ?, ?)",
            arguments: [push.room, Int64(head + 1), id, Data(push.bytes)]
        )
        try db.execute(
            sql: "INSERT INTO pack_extent (room, position, end_offset) VALUES (?, ?, ?)",
            arguments: [push.room, Int64(head + 1), Int64(end) + Int64(push.bytes.count)]
        )
        if let cover = push.snapshot, let author = push.author {
            try Self.recordPart(
                cover,
                by: author,
                room: push.room,
                position: head + 1,
                bytes: push.bytes.count,
                now: now,
                in: db
            )
        }
        return .stored(head + 1)
    }

    /// The room's head and its bytes stored: the last pack's extent, (0, 0) for a room with no packs.
    static func extent(room: String, in db: Database) throws -> (head: UInt64, bytes: UInt64) {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT position, end_offset FROM pack_extent WHERE room = ? ORDER BY position DESC LIMIT 1"
            ),
            arguments: [room]
        )
        guard let row else { return (0, 0) }
        return (UInt64(row[0] as Int64), UInt64(row[1] as Int64))
    }

    /// Where the room's bytes stand after the pack at `position` (0 before the first).
    static func offset(room: String, after position: UInt64, in db: Database) throws -> UInt64 {
        guard position > 0 else { return 0 }
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT end_offset FROM pack_extent WHERE room = ? AND position <= ?
                    ORDER BY position DESC LIMIT 1
                    """
            ),
            arguments: [room, Int64(clamping: position)]
        )
        return row.map { UInt64($0[0] as Int64) } ?? 0
    }

    /// The bytes the room's packs take: what counts toward ``maximumRoomBytes``.
    public func bytes(room: String) async throws -> UInt64 {
        try await reading {
            try await database.read { db in
                try Self.extent(room: room, in: db).bytes - (try Self.floorOffset(room: room, in: db))
            }
        }
    }

    /// The room's packs after `position`, oldest first, up to about `maximumBytes` (at least one):
    /// a catch-up sends these as one large frame, then asks for the next.
    public func packs(room: String, after position: UInt64, maximumBytes: Int = 4 << 20) throws -> [StoredPack] {
        try reading {
            try pool.read { db in try Self.packs(room: room, after: position, maximumBytes: maximumBytes, in: db) }
        }
    }

    static func packs(
        room: String,
        after position: UInt64,
        maximumBytes: Int,
        in db: Database
    ) throws
        -> [StoredPack]
    {
        var packs: [StoredPack] = []
        var total = 0
        let rows = try Self.rows(room: room, after: position, in: db)
        while let row = try rows.next() {
            let bytes = [UInt8](row["bytes"] as Data)
            if !packs.isEmpty, total + bytes.count > maximumBytes { break }
            packs.append(StoredPack(serverSeq: UInt64(row["position"] as Int64), bytes: bytes))
            total += bytes.count
        }
        return packs
    }

    /// The room's first `limit` packs after `position` in order (all of them when `limit` is -1), as
    /// rows of (position, bytes).
    static func rows(room: String, after position: UInt64, limit: Int = -1, in db: Database) throws -> RowCursor {
        try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT position, bytes FROM pack WHERE room = ? AND position > ? ORDER BY position LIMIT ?"
            ),
            arguments: [room, Int64(clamping: position), limit]
        )
    }

    /// The room's newest position (0 when it is empty), and the bytes stored after `position`:
    /// what a subscriber still has to download. Two lookups, whatever the room's size.
    public func progress(room: String, after position: UInt64) throws -> (head: UInt64, bytesAfter: UInt64) {
        try reading { try pool.read { db in try Self.progress(room: room, after: position, in: db) } }
    }

    static func progress(
        room: String,
        after position: UInt64,
        in db: Database
    ) throws -> (
        head: UInt64, bytesAfter: UInt64
    ) {
        let (head, bytes) = try extent(room: room, in: db)
        let offset = try Self.offset(room: room, after: min(position, head), in: db)
        // The extents only grow along a room: an offset past its end is a damaged table, not a room.
        guard offset <= bytes else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "a pack extent lies past its room's end")
        }
        return (head, bytes - offset)
    }

    /// Records that `device` holds the room up to `position`; a watermark only moves forward.
    public func setWatermark(room: String, device: ReplicaID, to position: UInt64) throws {
        try committing {
            try pool.write { db in try self.setWatermark(room: room, device: device, to: position, in: db) }
        }
    }

    /// The watermark written now, by the log's clock (when the device was last seen, for compaction).
    private func setWatermark(room: String, device: ReplicaID, to position: UInt64, in db: Database) throws {
        try Self.setWatermark(room: room, device: device, to: position, now: wallClock.millisecondsSince1970(), in: db)
    }

    static func setWatermark(
        room: String,
        device: ReplicaID,
        to position: UInt64,
        now: UInt64,
        in db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO device_watermark (room, device, position, seen_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (room, device) DO UPDATE SET position = MAX(position, excluded.position),
                    seen_at = MAX(seen_at, excluded.seen_at)
                """,
            arguments: [room, Data(device.bytes), Int64(clamping: position), Int64(clamping: now)]
        )
    }

    public func watermark(room: String, device: ReplicaID) throws -> UInt64 {
        try reading {
            try pool.read { db in
                UInt64(
                    try Int64.fetchOne(
                        db,
                        sql: "SELECT position FROM device_watermark WHERE room = ? AND device = ?",
                        arguments: [room, Data(device.bytes)]
                    ) ?? 0
                )
            }
        }
    }
}
