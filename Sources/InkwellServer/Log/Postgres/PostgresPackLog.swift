import Foundation
package import InkwellSync
package import Logging
import NIOCore
package import PostgresNIO

/// The pack log in PostgreSQL, for several server nodes sharing one database: rooms' packs at their
/// positions, devices' watermarks, rooms' access, which blobs each room holds, snapshots and floors.
/// Every node reads and writes the same tables, so a client may reconnect to any node.
///
/// **Positions.** Each room has a `room_head` row. A commit locks the rows of its rooms (in ascending
/// order of room, so that commits on several nodes never deadlock) and takes the next positions from
/// them; the locks are held until the commit. So a room's commits are serialised in position order, and
/// PostgreSQL makes a commit visible before it lets the next holder of the lock go on: a reader on any
/// node sees a room's positions as a prefix 1…n, never a later position before an earlier one that
/// commits after it. Compaction, checks of snapshots and the room's first push take the same lock.
///
/// **Durability.** A push is acknowledged only once the transaction that stores it has committed, and the
/// log refuses to open unless `synchronous_commit` is `on`: a commit PostgreSQL reports is on its disk.
///
/// **Faults.** Unlike a SQLite file, a database that stops answering (a restart, a failover, a network
/// cut) comes back: calls throw while it is away (pushes are answered `storageFailed`, "push it again"),
/// and work again once it answers, with no restart of the node. ``fault`` stays nil.
package final class PostgresPackLog: Sendable {
    /// Why the log refused to open.
    package enum Failure: Error, Hashable, CustomStringConvertible {
        /// The database's schema is newer than this version of the server knows.
        case newerSchema(found: Int, known: Int)
        /// Commits would not be durable when reported.
        case synchronousCommitOff(String)
        /// A row holds what this log never writes.
        case damaged(String)
        /// What was given as the database's address is not one.
        case notAURL(String)

        package var description: String {
            switch self {
            case .newerSchema(let found, let known):
                "the database's schema is version \(found), newer than this server knows (\(known)): upgrade the server"
            case .synchronousCommitOff(let value):
                "synchronous_commit is \(value): a commit PostgreSQL reports might not be durable; set it to on"
            case .damaged(let what):
                "the database holds a damaged row: \(what)"
            case .notAURL(let text):
                "\(text) is not a PostgreSQL URL such as postgres://user:password@host:5432/database"
            }
        }
    }

    let client: PostgresClient
    let logger: Logger
    let metrics: ServerMetrics?
    /// When authors and devices were last seen, for compaction.
    let wallClock: any WallClock
    /// The most pack bytes one room may hold; a push past it is ``PackLog/Appended/roomFull``.
    package let maximumRoomBytes: UInt64
    /// How many bytes a room stores after its newest snapshot, at least, before it takes another.
    let bytesBetweenSnapshots: UInt64
    /// How long a call may wait for the database before it fails: a push is then answered "not stored,
    /// push it again" rather than not at all. A commit of a full batch takes well under a second here.
    let operationTimeout: Duration

    /// A log on `client`, which the caller runs (`client.run()`) for as long as it uses the log. Call
    /// ``prepare()`` before anything else.
    package init(
        client: PostgresClient,
        maximumRoomBytes: UInt64 = .max,
        bytesBetweenSnapshots: UInt64 = PackLog.minimumBytesBetweenSnapshots,
        wallClock: any WallClock = SystemWallClock(),
        operationTimeout: Duration = .seconds(5),
        metrics: ServerMetrics? = nil,
        logger: Logger
    ) {
        self.operationTimeout = operationTimeout
        self.client = client
        self.maximumRoomBytes = maximumRoomBytes
        self.bytesBetweenSnapshots = bytesBetweenSnapshots
        self.wallClock = wallClock
        self.metrics = metrics
        self.logger = logger
    }

    /// A client for the database at `url` (`postgres://user:password@host:port/database`), TLS
    /// preferred unless the URL says `sslmode=disable`.
    package static func client(url: String) throws -> PostgresClient {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            let user = components.user, !user.isEmpty
        else {
            throw Failure.notAURL(url)
        }
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value
        var configuration = PostgresClient.Configuration(
            host: components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost",
            port: components.port ?? 5432,
            username: user.removingPercentEncoding ?? user,
            password: components.password?.removingPercentEncoding,
            database: components.path.count > 1 ? String(components.path.dropFirst()) : nil,
            tls: mode == "disable" ? .disable : .prefer(.makeClientConfiguration())
        )
        configuration.options.connectTimeout = .seconds(5)
        return PostgresClient(configuration: configuration)
    }

    // MARK: Opening

    /// Checks that commits are durable, and brings the schema up to this version, one migration a
    /// transaction. Nodes that start together take turns (an advisory lock), and a database newer than
    /// this version is refused (``Failure/newerSchema(found:known:)``).
    package func prepare() async throws {
        let setting = try await client.query("SHOW synchronous_commit", logger: logger).decode(String.self)
        for try await value in setting where value != "on" { throw Failure.synchronousCommitOff(value) }
        do {
            try await migrate()
        } catch let error as PostgresTransactionError {
            // The refusal of a newer schema, as itself rather than as the transaction that rolled back.
            if let failure = error.closureError as? Failure { throw failure }
            throw error
        }
    }

    /// Runs the migrations this database has not run, under the migration lock.
    private func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            // One node migrates at a time; the lock goes with the transaction.
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS inkwell_schema (version integer PRIMARY KEY)",
                logger: logger
            )
            let found =
                try await connection.query(
                    "SELECT coalesce(max(version), 0) FROM inkwell_schema",
                    logger: logger
                ).decode(Int.self).first { _ in true } ?? 0
            guard found <= PostgresSchema.migrations.count else {
                throw Failure.newerSchema(found: found, known: PostgresSchema.migrations.count)
            }
            for (index, migration) in PostgresSchema.migrations.enumerated().dropFirst(found) {
                for statement in migration {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO inkwell_schema (version) VALUES (\(index + 1))", logger: logger)
                logger.notice("pack log schema migrated", metadata: ["version": "\(index + 1)"])
            }
        }
    }

    /// The advisory lock migrations take: a fixed number of this log's own.
    static let migrationLock: Int64 = 0x696E_6B77_656C_6C01

    // MARK: Health

    /// Never set: a database that does not answer is waited for, not given up on (see the type's notes).
    package var fault: StorageFault? { nil }

    /// Whether `SELECT 1` answers within 2 s. A dead connection may leave the query hanging for the
    /// network's own timeout: ``Deadline`` answers without waiting for it.
    package func isReachable() async -> Bool {
        let answer = try? await Deadline.run(within: .seconds(2)) { [self] in
            try await client.query("SELECT 1", logger: logger).decode(Int.self).first { _ in true }
        }
        return answer == 1
    }

    package func serverID() async throws -> ReplicaID {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO server_identity (singleton, replica) VALUES (1, \(Self.bytes(ReplicaID.random().bytes)))
                ON CONFLICT DO NOTHING
                """,
                logger: logger
            )
            let stored = try await connection.query("SELECT replica FROM server_identity", logger: logger)
                .decode(ByteBuffer.self).first { _ in true }
            guard let stored, let replica = ReplicaID(bytes: Array(stored.readableBytesView)) else {
                throw Failure.damaged("server_identity holds no valid replica id")
            }
            return replica
        }
    }

    // MARK: Helpers

    /// Runs a call to the database within ``operationTimeout``; counts an error of it by kind (nothing for
    /// a cancelled call) and throws it on.
    func counting<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
        do {
            return try await Deadline.run(within: operationTimeout, body)
        } catch {
            if !(error is CancellationError) {
                metrics?.storageError(error is PSQLError ? .unavailable : .other)
            }
            throw error
        }
    }

    /// Runs `body` in a read-only transaction that sees one snapshot of the database throughout.
    func readSnapshot<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        try await client.withConnection { connection in
            try await connection.query("START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// The first row of a one-column query, decoded; nil when there is none.
    static func first<Column: PostgresDecodable & Sendable>(
        _ type: Column.Type,
        _ query: PostgresQuery,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Column? {
        for try await value in try await connection.query(query, logger: logger).decode(type) { return value }
        return nil
    }

    /// The first row of a query, decoded as a tuple of its columns; nil when there is none.
    static func first<each Column: PostgresDecodable & Sendable>(
        _ types: (repeat each Column).Type,
        _ query: PostgresQuery,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> (repeat each Column)? {
        for try await row in try await connection.query(query, logger: logger).decode(types) { return row }
        return nil
    }

    static func bytes(_ bytes: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: bytes) }

    var now: Int64 { Int64(clamping: wallClock.millisecondsSince1970()) }
}
extension PostgresPackLog: PackStore {}
