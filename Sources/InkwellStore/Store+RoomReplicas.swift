import Foundation
import GRDB
public import InkwellSync

extension Store {
    /// The replica this device writes `room` under: made on first use and kept for the store's life.
    ///
    /// One per room, not one per device, so that a device's changes to a room form a contiguous
    /// timeline of their own. Room frontiers then have no holes, and a snapshot whose cut is the room
    /// frontier is complete (see ``snapshotIfNeeded(room:board:tailThreshold:)``). A reset store makes
    /// new ones, so no timeline is ever written twice.
    public func replica(for room: String) throws -> ReplicaID {
        guard !room.isEmpty else { throw StoreError.emptyName() }
        return try write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO room_replica (room, replica) VALUES (?, ?)",
                arguments: [room, SQLValues.replica(.random())]
            )
            let stored = try Data.fetchOne(
                db,
                sql: "SELECT replica FROM room_replica WHERE room = ?",
                arguments: [room]
            )
            guard let replica = SQLValues.replica(stored: stored) else { throw StoreError.corruptRow("room_replica") }
            return replica
        }
    }
}
