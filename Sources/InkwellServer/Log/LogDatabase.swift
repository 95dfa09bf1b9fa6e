import GRDB

/// The log's SQLite file as its asynchronous calls reach it: through GRDB's own queues, so a commit's
/// fsync never blocks a thread of the concurrency pool, or on the caller's thread, for a harness that
/// runs every task of the server on one thread in an order it chooses (the deterministic simulation).
/// The SQL is the same either way.
struct LogDatabase: Sendable {
    let pool: DatabasePool
    /// Whether calls run on the caller's thread.
    let runsInline: Bool

    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        if runsInline { return try readHere(body) }
        return try await pool.read(body)
    }

    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        if runsInline { return try writeHere(body) }
        return try await pool.write(body)
    }

    private func readHere<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    private func writeHere<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.write(body)
    }
}
