package import GRDB

/// Makes the writer connection durable and proves it.
///
/// `DatabasePool` switches WAL on after `prepareDatabase` has run and then sets `synchronous=NORMAL`,
/// which in WAL mode may lose the last commits on power failure. So FULL is set afterwards, on the
/// writer connection itself (the pool never reopens it), and both settings are read back: a store
/// that cannot confirm them refuses to open rather than acknowledge changes it might lose.
package enum Durability {
    /// SQLite's code for `synchronous=FULL`.
    package static let full = 2

    package static func enforce(_ db: Database) throws {
        try db.execute(sql: "PRAGMA synchronous = FULL")
        // Darwin's fsync does not flush the drive's cache; this asks for F_FULLFSYNC. No-op elsewhere.
        try db.execute(sql: "PRAGMA fullfsync = ON")
        let settings = try Settings(db)
        guard settings.journalMode == "wal", settings.synchronous == full, settings.foreignKeys else {
            throw StoreError.notDurable(journalMode: settings.journalMode, synchronous: settings.synchronous)
        }
    }

    /// The settings as the connection reports them.
    struct Settings: Hashable, Sendable {
        var journalMode: String
        var synchronous: Int
        var foreignKeys: Bool

        init(_ db: Database) throws {
            journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "unknown"
            synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            foreignKeys = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        }
    }
}

extension Store {
    /// The writer connection's journal mode, synchronous level and foreign-key switch, read back from SQLite.
    package func writerSettings() throws -> (journalMode: String, synchronous: Int, foreignKeys: Bool) {
        let settings = try mapErrors { try writer.writeWithoutTransaction(Durability.Settings.init) }
        return (settings.journalMode, settings.synchronous, settings.foreignKeys)
    }
}
