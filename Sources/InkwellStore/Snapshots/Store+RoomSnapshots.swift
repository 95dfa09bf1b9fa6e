import GRDB

extension Store {
    /// The newest room snapshot this device heard of in `room` (sent, or received and checked): the
    /// server position it stands for and the changes it holds; `nil` before any.
    public func heardSnapshot(room: String) throws -> (position: UInt64, changes: UInt64, held: UInt64)? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT position, changes, held FROM room_snapshot_heard WHERE room = ?",
                    arguments: [room]
                ),
                let position = SQLValues.unsigned(stored: row[0]),
                let changes = SQLValues.unsigned(stored: row[1]),
                let held = SQLValues.unsigned(stored: row[2])
            else { return nil }
            return (position, changes, held)
        }
    }

    /// Records a room snapshot heard of, unless a newer one was: a later position wins. `changes` are the
    /// changes its cut stands for, `held` those it holds.
    public func hearSnapshot(room: String, position: UInt64, changes: UInt64, held: UInt64) throws {
        guard let position = SQLValues.integer(position), position >= 1, let changes = SQLValues.integer(changes),
            let held = SQLValues.integer(held)
        else { throw StoreError.outOfRange() }
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO room_snapshot_heard (room, position, changes, held) VALUES (?, ?, ?, ?)
                    ON CONFLICT (room) DO UPDATE
                    SET position = excluded.position, changes = excluded.changes, held = excluded.held
                    WHERE excluded.position > room_snapshot_heard.position
                    """,
                arguments: [room, position, changes, held]
            )
        }
    }
}
