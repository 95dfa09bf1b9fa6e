import GRDB

extension Store {
    /// The server sequence number up to which this store has received the room's packs (0 for none yet).
    public func watermark(room: String) throws -> UInt64 {
        try read { db in
            let stored = try Int64.fetchOne(
                db,
                sql: "SELECT server_seq FROM room_watermark WHERE room = ?",
                arguments: [room]
            )
            return stored.flatMap(SQLValues.unsigned(stored:)) ?? 0
        }
    }

    /// Moves the room's watermark forward to `position`; a lower position is ignored, so a late or repeated
    /// reply never makes the store ask for packs again from further back than it needs.
    ///
    /// - Returns: the watermark now stored.
    @discardableResult
    public func setWatermark(room: String, to position: UInt64) throws -> UInt64 {
        guard !room.isEmpty else { throw StoreError.emptyName() }
        guard let stored = SQLValues.integer(position) else { throw StoreError.outOfRange() }
        return try write { db in
            try db.execute(
                sql: """
                    INSERT INTO room_watermark (room, server_seq) VALUES (?1, ?2)
                    ON CONFLICT (room) DO UPDATE SET server_seq = max(server_seq, ?2)
                    """,
                arguments: [room, stored]
            )
            let now = try Int64.fetchOne(
                db,
                sql: "SELECT server_seq FROM room_watermark WHERE room = ?",
                arguments: [room]
            )
            return now.flatMap(SQLValues.unsigned(stored:)) ?? 0
        }
    }
}
