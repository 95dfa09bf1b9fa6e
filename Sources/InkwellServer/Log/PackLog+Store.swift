import GRDB
import InkwellSync
package import InkwellWire

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

    package func packs(after positions: [String: UInt64], maximumBytes: Int) async throws -> [String: [StoredPack]] {
        try await reading {
            try await database.read { db in
                var packs: [String: [StoredPack]] = [:]
                var left = maximumBytes
                for (room, after) in positions.sorted(by: { $0.key < $1.key }) where left > 0 {
                    let read = try Self.packs(room: room, after: after, maximumBytes: left, in: db)
                    left -= read.reduce(0) { $0 + $1.bytes.count }
                    if !read.isEmpty { packs[room] = read }
                }
                return packs
            }
        }
    }
}
