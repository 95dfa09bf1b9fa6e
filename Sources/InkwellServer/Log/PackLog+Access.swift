import Foundation
import GRDB
import InkwellWire
import Synchronization

/// Rooms' capabilities, as hashes: registered once, rotated by the admin, looked up on every subscribe.
extension PackLog {
    /// How many rooms' access the cache keeps before it starts again: a bound on memory when clients
    /// name many rooms, open or not.
    static let accessCacheLimit = 100_000

    /// What `room` keeps: its hashes, `.open`, or nil when the server has no such room.
    public func access(room: String) async throws -> RoomAccess? {
        let (cached, generation) = accessCache.withLock { ($0.entries[room], $0.generation) }
        if let cached { return cached }
        let access = try await reading { try await database.read { db in try Self.access(room: room, in: db) } }
        if let access { accessCache.withLock { _ = $0.store(read: access, for: room, readAt: generation) } }
        return access
    }

    /// Registers a guarded room; registering again with the same admin hash changes nothing.
    public func register(room: String, hashes: RoomAccess.Hashes) async throws -> RoomAccess.Registration {
        let outcome = try await committing {
            try await database.write { db -> RoomAccess.Registration in
                switch try Self.access(room: room, in: db) {
                case .guarded(let stored):
                    return RoomAccess.same(stored.admin, hashes.admin) ? .alreadyRegistered : .taken
                case .open:
                    return .taken
                case nil:
                    try db.execute(
                        sql: "INSERT INTO room_access (room, admin_hash, edit_hash, view_hash) VALUES (?, ?, ?, ?)",
                        arguments: [room, Data(hashes.admin), Data(hashes.edit), Data(hashes.view)]
                    )
                    return .created
                }
            }
        }
        if outcome == .created { remember(.guarded(hashes), for: room) }
        return outcome
    }

    /// Replaces the edit or view hash (an empty one keeps it) when `adminHash` is the room's.
    public func rotate(
        room: String,
        adminHash: [UInt8],
        editHash: [UInt8],
        viewHash: [UInt8]
    ) async throws -> RoomAccess.Rotation {
        let (outcome, access) = try await committing {
            try await database.write { db -> (RoomAccess.Rotation, RoomAccess?) in
                guard case .guarded(var hashes) = try Self.access(room: room, in: db),
                    RoomAccess.same(hashes.admin, adminHash)
                else { return (.refused, nil) }
                let replaced = hashes.rotate(edit: editHash, view: viewHash)
                try db.execute(
                    sql: "UPDATE room_access SET edit_hash = ?, view_hash = ? WHERE room = ?",
                    arguments: [Data(hashes.edit), Data(hashes.view), room]
                )
                return (.rotated(replaced: replaced), .guarded(hashes))
            }
        }
        if let access { remember(access, for: room) }
        return outcome
    }

    /// A room's row, or for a room with none, `.open` when it holds packs (pushed before capabilities
    /// existed, or on a server with open rooms) and nil when it does not exist.
    static func access(room: String, in db: Database) throws -> RoomAccess? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT admin_hash, edit_hash, view_hash FROM room_access WHERE room = ?",
                arguments: [room]
            )
        else {
            let hasPacks = try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM pack WHERE room = ?)",
                arguments: [room]
            )
            return hasPacks == true ? .open : nil
        }
        guard let admin = row[0] as Data?, let edit = row[1] as Data?, let view = row[2] as Data? else {
            return .open
        }
        return .guarded(RoomAccess.Hashes(admin: Array(admin), edit: Array(edit), view: Array(view)))
    }

    /// Caches what a write made true, after it committed.
    private func remember(_ access: RoomAccess, for room: String) {
        accessCache.withLock { $0.remember(access, for: room) }
    }
}

/// Rooms' access by name, with a generation that every write bumps. Only rooms that exist are cached,
/// so a name registered later is never refused from memory.
struct AccessCache: Sendable {
    private(set) var entries: [String: RoomAccess] = [:]
    private(set) var generation: UInt64 = 0

    /// Caches what a committed write made true, and ends every read begun before it.
    mutating func remember(_ access: RoomAccess, for room: String) {
        generation &+= 1
        store(access, for: room)
    }

    /// Caches what a read found, unless a write committed since the read began (at `generation`): the
    /// read may hold the hashes that write replaced, and a rotated link would keep working from memory.
    ///
    /// - Returns: whether it was cached.
    mutating func store(read access: RoomAccess, for room: String, readAt generation: UInt64) -> Bool {
        guard generation == self.generation else { return false }
        store(access, for: room)
        return true
    }

    private mutating func store(_ access: RoomAccess, for room: String) {
        if entries.count >= PackLog.accessCacheLimit { entries.removeAll(keepingCapacity: true) }
        entries[room] = access
    }
}
