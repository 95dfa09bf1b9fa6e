import Foundation
import GRDB
import InkwellWire

extension Store {
    /// What opens `room` for this device, or nil when it holds nothing (an open room).
    ///
    /// - Throws: ``StoreError`` when the store cannot be read, or holds a capability that does not parse.
    public func credentials(room: String) throws -> RoomCredentials? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT capability, admin, edit, view, room_key FROM room_access WHERE room = ?",
                    arguments: [room]
                )
            else { return nil }
            func capability(_ column: Int) throws -> Capability? {
                guard let text = row[column] as String? else { return nil }
                guard let parsed = Capability(text) else { throw StoreError.corruptRow("room_access") }
                return parsed
            }
            guard let subscribing = try capability(0) else { throw StoreError.corruptRow("room_access") }
            return RoomCredentials(
                capability: subscribing,
                admin: try capability(1),
                edit: try capability(2),
                view: try capability(3),
                key: try (row[4] as Data?).map { data in
                    guard let key = RoomKey(bytes: data) else { throw StoreError.corruptRow("room_access") }
                    return key
                }
            )
        }
    }

    /// Keeps what opens `room`. Capabilities already held and not given again are kept: joining by a
    /// view link on the device that made the board does not drop its admin capability.
    public func setCredentials(_ credentials: RoomCredentials, for room: String) throws {
        guard !room.isEmpty else { throw StoreError.emptyName() }
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO room_access (room, capability, admin, edit, view, room_key) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                    ON CONFLICT (room) DO UPDATE SET
                        capability = ?2,
                        admin = IFNULL(?3, admin),
                        edit = IFNULL(?4, edit),
                        view = IFNULL(?5, view),
                        room_key = IFNULL(?6, room_key)
                    """,
                arguments: [
                    room, credentials.capability.text, credentials.admin?.text, credentials.edit?.text,
                    credentials.view?.text, credentials.key.map { Data($0.bytes) },
                ]
            )
        }
    }

    /// The rooms this device holds credentials for, in name order.
    public func roomsWithCredentials() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT room FROM room_access ORDER BY room") }
    }
}
