import Foundation
import GRDB
import InkwellServer
import InkwellSync
import InkwellWire
import Logging
import NIOCore
import PostgresNIO

@testable import InkwellServer

/// What a stopped server kept: its `packs.sqlite`, or the PostgreSQL database `ServerProcess` made for
/// its data folder when the tests run on PostgreSQL. Read through the server's own store and, for what
/// that API does not list (every room, every watermark, every registered room and blob), with plain SQL,
/// the same on either: the tables have the same names and columns.
struct PackLogAudit {
    struct StoredPackRow {
        var room: String
        var position: UInt64
        var id: PackID
        var bytes: [UInt8]
    }

    struct BlobRow {
        var room: String
        var hash: [UInt8]
        var size: Int
    }

    /// Every pack, room by room, in position order.
    var packs: [StoredPackRow] = []
    /// Rooms that hold at least one pack.
    var rooms: Set<String> = []
    /// Devices with a recorded watermark, by room.
    var watermarkDevices: [String: Set<ReplicaID>] = [:]
    /// Rooms with a row of capabilities.
    var registeredRooms: [String] = []
    /// Which room holds which blob.
    var blobs: [BlobRow] = []

    /// Reads what the server on `data` kept; the server must have stopped.
    init(data: URL) async throws {
        let postgres = data.appendingPathComponent(".test-postgres-url")
        if let url = try? String(contentsOf: postgres, encoding: .utf8) {
            try await readPostgres(url: url)
        } else {
            try readSQLite(path: data.appendingPathComponent("packs.sqlite").path)
        }
        rooms = Set(packs.map(\.room))
    }

    /// The packs of `room` the server serves, as a map of position to id.
    func served(room: String) -> [UInt64: PackID] {
        Dictionary(uniqueKeysWithValues: packs.filter { $0.room == room }.map { ($0.position, $0.id) })
    }

    private mutating func readSQLite(path: String) throws {
        // Opening it as the server does also checks that it still migrates and opens.
        let log = try PackLog(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            for row in try Row.fetchAll(
                db,
                sql: "SELECT room, position, pack_id, bytes FROM pack ORDER BY room, position"
            ) {
                packs.append(
                    Self.pack(
                        room: row["room"],
                        position: row["position"],
                        id: [UInt8](row["pack_id"] as Data),
                        bytes: [UInt8](row["bytes"] as Data)
                    )
                )
            }
            for row in try Row.fetchAll(db, sql: "SELECT room, device FROM device_watermark") {
                noteWatermark(room: row["room"], device: [UInt8](row["device"] as Data))
            }
            registeredRooms = try String.fetchAll(db, sql: "SELECT room FROM room_access")
            for row in try Row.fetchAll(db, sql: "SELECT room, hash, size FROM room_blob") {
                blobs.append(BlobRow(room: row["room"], hash: [UInt8](row["hash"] as Data), size: row["size"]))
            }
        }
        for room in Set(packs.map(\.room)) {
            try check(room: room, served: try log.packs(room: room, after: 0, maximumBytes: .max))
        }
    }

    private mutating func readPostgres(url: String) async throws {
        let client = try PostgresPackLog.client(url: url)
        let logger = Logger(label: "test.audit")
        let connections = Task { await client.run() }
        defer { connections.cancel() }
        let log = PostgresPackLog(client: client, logger: logger)
        try await log.prepare()
        let rows = try await client.query(
            "SELECT room, position, pack_id, bytes FROM pack ORDER BY room, position",
            logger: logger
        )
        for try await (room, position, id, bytes) in rows.decode((String, Int64, ByteBuffer, ByteBuffer).self) {
            packs.append(
                Self.pack(
                    room: room,
                    position: position,
                    id: Array(id.readableBytesView),
                    bytes: Array(bytes.readableBytesView)
                )
            )
        }
        let marks = try await client.query("SELECT room, device FROM device_watermark", logger: logger)
        for try await (room, device) in marks.decode((String, ByteBuffer).self) {
            noteWatermark(room: room, device: Array(device.readableBytesView))
        }
        for try await room in try await client.query("SELECT room FROM room_access", logger: logger)
            .decode(String.self)
        {
            registeredRooms.append(room)
        }
        let blobRows = try await client.query("SELECT room, hash, size FROM room_blob", logger: logger)
        for try await (room, hash, size) in blobRows.decode((String, ByteBuffer, Int64).self) {
            blobs.append(BlobRow(room: room, hash: Array(hash.readableBytesView), size: Int(size)))
        }
        for room in Set(packs.map(\.room)) {
            try check(room: room, served: try await log.packs(room: room, after: 0, maximumBytes: .max))
        }
    }

    private static func pack(room: String, position: Int64, id: [UInt8], bytes: [UInt8]) -> StoredPackRow {
        StoredPackRow(room: room, position: UInt64(position), id: PackID(bytes: id) ?? PackID(of: []), bytes: bytes)
    }

    private mutating func noteWatermark(room: String, device: [UInt8]) {
        guard let device = ReplicaID(bytes: device) else { return }
        watermarkDevices[room, default: []].insert(device)
    }

    /// The server's own reading agrees with the rows: the same packs, in the same order.
    private func check(room: String, served: [StoredPack]) throws {
        guard served.map(\.serverSeq) == packs.filter({ $0.room == room }).map(\.position) else {
            throw PackLogAuditFailure(description: "the store serves other packs of \(room) than its table holds")
        }
    }
}

struct PackLogAuditFailure: Error, CustomStringConvertible {
    let description: String
}
