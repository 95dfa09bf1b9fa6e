import Foundation
import GRDB
public import InkwellSync
public import InkwellWire

extension Store {
    /// The replica this device writes `room` under: made on first use, with the key that owns it, and
    /// kept for the store's life.
    ///
    /// One per room, not one per device, so that a device's changes to a room form a contiguous
    /// timeline of their own. Room frontiers then have no holes, and a snapshot whose cut is the room
    /// frontier is complete (see ``snapshotIfNeeded(room:document:policy:)``). A reset store makes
    /// new ones, so no timeline is ever written twice. A room whose replica was made before replicas had
    /// keys gets a new one: packs of the old one could not be signed.
    public func replica(for room: String) throws -> ReplicaID {
        guard !room.isEmpty else { throw StoreError.emptyName() }
        return try write { db in
            let stored = try Data.fetchOne(
                db,
                sql: """
                    SELECT room_replica.replica FROM room_replica JOIN replica_key USING (replica)
                    WHERE room = ?
                    """,
                arguments: [room]
            )
            if let stored {
                guard let replica = SQLValues.replica(stored: stored) else {
                    throw StoreError.corruptRow("room_replica")
                }
                return replica
            }
            var generator = configuration.generator
            let key = AuthorKey(using: &generator)
            try db.execute(
                sql: "INSERT INTO replica_key (replica, private_key) VALUES (?, ?)",
                arguments: [SQLValues.replica(key.replica), Data(key.rawRepresentation)]
            )
            try db.execute(
                sql: "INSERT OR REPLACE INTO room_replica (room, replica) VALUES (?, ?)",
                arguments: [room, SQLValues.replica(key.replica)]
            )
            return key.replica
        }
    }

    /// The key that owns `replica`, if this store made it: what signs the packs of its changes.
    public func authorKey(of replica: ReplicaID) throws -> AuthorKey? {
        let stored = try read { db in
            try Data.fetchOne(
                db,
                sql: "SELECT private_key FROM replica_key WHERE replica = ?",
                arguments: [SQLValues.replica(replica)]
            )
        }
        guard let stored else { return nil }
        do {
            return try AuthorKey(rawRepresentation: [UInt8](stored))
        } catch {
            throw StoreError.corruptRow("replica_key")
        }
    }
}
