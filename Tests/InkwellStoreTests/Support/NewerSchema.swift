import GRDB

/// Marks a closed store file as migrated by a future Inkwell (an unknown migration and a higher
/// `user_version`), so the tests can check that this version refuses to open it.
func markAsWrittenByNewerVersion(_ path: String, schema version: Int) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: ["v\(version)"])
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }
}
