import GRDB
import InkwellSync

/// The SQLite log as the server's store: one process, one file.
extension PackLog: PackStore {
    /// The file is local: it answers while the log has no fault.
    package func isReachable() async -> Bool { fault == nil }

    package func heads(rooms: [String]) async throws -> [String: UInt64] {
        try await reading {
            try await database.read { db in
                var heads: [String: UInt64] = [:]
                for room in rooms {
                    let head = try Int64.fetchOne(
                        db.cachedStatement(sql: "SELECT MAX(position) FROM pack WHERE room = ?"),
                        arguments: [room]
                    )
                    if let head { heads[room] = UInt64(head) }
                }
                return heads
            }
        }
    }
}
