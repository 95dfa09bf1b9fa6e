import Foundation
import GRDB

extension Store {
    /// Keeps a pack or change this code cannot decode yet.
    ///
    /// - Returns: the new item's id.
    @discardableResult
    public func storeAside(_ bytes: [UInt8], schemaVersion: UInt32, room: String) throws -> Int64 {
        guard !room.isEmpty else { throw StoreError.emptyName() }
        guard bytes.count <= configuration.maximumValueBytes else {
            throw StoreError.payloadTooLarge(nil, size: bytes.count, limit: configuration.maximumValueBytes)
        }
        let receivedAt = configuration.milliseconds
        return try write { db in
            try db.execute(
                sql: "INSERT INTO stored_aside (room, schema_version, bytes, received_at) VALUES (?, ?, ?, ?)",
                arguments: [room, Int64(schemaVersion), Data(bytes), receivedAt]
            )
            return db.lastInsertedRowID
        }
    }

    /// The items whose schema is at most `schemaVersion` — the ones this version can now decode — in arrival order.
    public func storedAside(upTo schemaVersion: UInt32) throws -> [StoredAside] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, room, schema_version, bytes, received_at FROM stored_aside
                    WHERE schema_version <= ? ORDER BY id
                    """,
                arguments: [Int64(schemaVersion)]
            )
            .map { row in
                guard let version = UInt32(exactly: row[2] as Int64), let bytes = row[3] as Data? else {
                    throw StoreError.corruptRow("stored_aside")
                }
                let milliseconds: Int64 = row[4]
                return StoredAside(
                    id: row[0],
                    room: row[1],
                    schemaVersion: version,
                    bytes: [UInt8](bytes),
                    receivedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000)
                )
            }
        }
    }

    /// Forgets items once decoded (and their changes appended); unknown ids are ignored.
    public func removeStoredAside(_ ids: [Int64]) throws {
        try write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM stored_aside WHERE id = ?")
            for id in ids { try statement.execute(arguments: [id]) }
        }
    }
}
