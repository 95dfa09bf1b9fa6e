import Foundation
import GRDB
import InkwellServer
import InkwellSync
import InkwellWire

/// What a stopped server's `packs.sqlite` holds, read through its own ``PackLog`` and, for what that API
/// does not list (every room, every watermark), with plain SQL.
struct PackLogAudit {
    struct StoredPackRow {
        var room: String
        var position: UInt64
        var id: PackID
        var bytes: [UInt8]
    }

    /// Every pack, room by room, in position order.
    var packs: [StoredPackRow] = []
    /// Rooms that hold at least one pack.
    var rooms: Set<String> = []
    /// Devices with a recorded watermark, by room.
    var watermarkDevices: [String: Set<ReplicaID>] = [:]

    /// Reads the log at `path`; the server must have stopped.
    init(path: String) throws {
        // Opening it as the server does also checks that it still migrates and opens.
        let log = try PackLog(path: path)
        let queue = try DatabaseQueue(path: path)
        let (rows, marks) = try queue.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT room, position, pack_id, bytes FROM pack ORDER BY room, position"),
                try Row.fetchAll(db, sql: "SELECT room, device FROM device_watermark")
            )
        }
        for row in rows {
            let id = [UInt8](row["pack_id"] as Data)
            packs.append(
                StoredPackRow(
                    room: row["room"],
                    position: UInt64(row["position"] as Int64),
                    id: PackID(bytes: id) ?? PackID(of: []),
                    bytes: [UInt8](row["bytes"] as Data)
                )
            )
        }
        rooms = Set(packs.map(\.room))
        for mark in marks {
            guard let device = ReplicaID(bytes: [UInt8](mark["device"] as Data)) else { continue }
            watermarkDevices[mark["room"] as String, default: []].insert(device)
        }
        // The server's own reading agrees with the rows: the same packs, in the same order.
        for room in rooms {
            var after: UInt64 = 0
            var served: [UInt64] = []
            while true {
                let batch = try log.packs(room: room, after: after)
                guard let last = batch.last else { break }
                served += batch.map(\.serverSeq)
                after = last.serverSeq
            }
            guard served == packs.filter({ $0.room == room }).map(\.position) else {
                throw PackLogAuditFailure(description: "PackLog serves other packs of \(room) than its table holds")
            }
        }
    }
}

struct PackLogAuditFailure: Error, CustomStringConvertible {
    let description: String
}
