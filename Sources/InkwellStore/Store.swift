import Foundation
import GRDB
public import InkwellSync
import Synchronization

/// The local store: every change this device holds, its snapshots, outbox, watermarks, blob metadata and
/// what it could not decode yet, in one SQLite file (DESIGN §1: the local store *is* the sync store).
///
/// Every method is one transaction: it either happens entirely or, when it throws, leaves nothing behind.
/// Writes are serialised on one connection that runs in WAL mode with `synchronous=FULL`, so a change is
/// on disk when its method returns; reads run concurrently on their own connections. Methods block the
/// calling thread; call them off the main thread.
public final class Store: Sendable {
    let writer: any DatabaseWriter
    public let configuration: Configuration
    /// This store's own replica: the author of its local changes. A new or reset store gets a new one.
    public let replica: ReplicaID
    let subscribers = Mutex(Subscribers())

    /// Opens or creates the store at `path`.
    ///
    /// - Throws: ``StoreError/newerSchema(found:supported:)`` without touching the file when a newer
    ///   Inkwell wrote it; ``StoreError`` when SQLite cannot confirm durable settings or fails.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        try self.init(writer: Self.openPool(path: path, configuration: configuration), configuration: configuration)
    }

    /// A store that lives in memory only, for tests and previews.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> Store {
        try mapErrors {
            var grdb = GRDB.Configuration()
            grdb.foreignKeysEnabled = true
            return try Store(writer: DatabaseQueue(configuration: grdb), configuration: configuration)
        }
    }

    private static func newReplica(_ configuration: Configuration) -> ReplicaID {
        var generator = configuration.generator
        return ReplicaID(using: &generator)
    }

    private init(writer: any DatabaseWriter, configuration: Configuration) throws {
        self.writer = writer
        self.configuration = configuration
        self.replica = try mapErrors {
            try writer.read(StoreSchema.refuseNewer)
            try StoreSchema.migrator.migrate(writer)
            return try writer.write { db in
                try db.execute(
                    sql: "INSERT OR IGNORE INTO store_identity (singleton, replica) VALUES (1, ?)",
                    arguments: [SQLValues.replica(Self.newReplica(configuration))]
                )
                let stored = try Data.fetchOne(db, sql: "SELECT replica FROM store_identity")
                guard let replica = SQLValues.replica(stored: stored) else {
                    throw StoreError.corruptRow("store_identity")
                }
                return replica
            }
        }
    }

    /// Closes the file's connections: every later call throws. For a harness that drops a process's store
    /// at once, as a power cut does, while tasks of that process still hold it.
    package func close() throws {
        try mapErrors { try writer.close() }
    }

    deinit {
        for continuation in subscribers.withLock({ $0.takeAll() }) { continuation.finish() }
    }

    /// Opens the pool, refusing first (read-only, so the file stays untouched) a file from a newer Inkwell.
    private static func openPool(path: String, configuration: Configuration) throws -> DatabasePool {
        try mapErrors {
            if FileManager.default.fileExists(atPath: path) {
                var readOnly = GRDB.Configuration()
                readOnly.readonly = true
                readOnly.busyMode = .timeout(configuration.busyTimeout)
                let probe = try DatabaseQueue(path: path, configuration: readOnly)
                try probe.read(StoreSchema.refuseNewer)
                try probe.close()
            }
            var grdb = GRDB.Configuration()
            grdb.foreignKeysEnabled = true
            grdb.busyMode = .timeout(configuration.busyTimeout)
            let pool = try DatabasePool(path: path, configuration: grdb)
            try pool.writeWithoutTransaction(Durability.enforce)
            return pool
        }
    }
}

/// Runs `body`, turning SQLite's errors into ``StoreError``s: callers see one error type.
func mapErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as DatabaseError {
        throw StoreError.sqlite(code: error.extendedResultCode.rawValue, message: error.message ?? "unknown")
    }
}

extension Store {
    /// One write transaction, with SQLite errors mapped.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try mapErrors { try writer.write(body) }
    }

    /// One read transaction (a consistent snapshot of the file), with SQLite errors mapped.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try mapErrors { try writer.read(body) }
    }
}
