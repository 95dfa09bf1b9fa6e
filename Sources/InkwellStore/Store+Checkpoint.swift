import GRDB

extension Store {
    /// What the store's file holds: the bytes of the pages in use and of those SQLite keeps free for
    /// reuse, and how many change rows.
    package struct FileUsage: Hashable, Sendable {
        package let usedBytes: Int
        package let freeBytes: Int
        package let changeRows: Int
    }

    /// Moves every committed page from the write-ahead log into the file and empties the log, so the
    /// file's size is the store's; then reports how the file's pages are used. For benchmarks.
    package func checkpoint() throws -> FileUsage {
        try mapErrors {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
                let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM change") ?? 0
                return FileUsage(usedBytes: (pages - free) * pageSize, freeBytes: free * pageSize, changeRows: rows)
            }
        }
    }
}
