import Foundation
import GRDB
public import InkwellStore

/// Which blobs each room holds, and how many bytes they count against the room's quota.
///
/// The bytes themselves are in the ``BlobStore``, once however many rooms hold them; a room may read
/// only the blobs recorded for it here, and a blob is recorded only once its bytes were uploaded to
/// that room, hash verified. Recording is one transaction that checks the quota, so uploads racing
/// for a room's last bytes cannot both pass.
extension PackLog {
    /// What a room holds, as an upload needs to know it before reading its body.
    public struct RoomBlobs: Hashable, Sendable {
        /// The size recorded for the blob in this room, if it is recorded there.
        public var recordedSize: Int?
        /// What the room's blobs count against its quota (``charge(forBlobOf:)`` of each).
        public var chargedBytes: Int
    }

    /// How recording a blob in a room ended.
    public enum BlobRecording: Hashable, Sendable {
        /// Recorded now: it counts against the room's quota from here on.
        case recorded
        /// The room already held it, with this size; nothing changed.
        case alreadyRecorded(size: Int)
        /// Recording it would take the room past its quota; nothing changed. The room's blobs count this much.
        case overQuota(chargedBytes: Int)
    }

    /// The least a blob counts against its room's quota, whatever its size: a file takes at least a disk
    /// block, and without it a room could hold millions of one-byte blobs within its bytes.
    public static let minimumBlobCharge = 4_096

    /// What a blob of `size` bytes counts against its room's quota.
    public static func charge(forBlobOf size: Int) -> Int {
        max(size, minimumBlobCharge)
    }

    /// The table of rooms' blobs (migration v5).
    static func createRoomBlobs(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE room_blob (
                    room TEXT NOT NULL,
                    hash BLOB NOT NULL CHECK (length(hash) = 32),
                    size INTEGER NOT NULL CHECK (size >= 0),
                    PRIMARY KEY (room, hash)
                ) WITHOUT ROWID;
                """
        )
    }

    /// Whether `room` holds the blob `hash`, and what its blobs count against its quota.
    public func blobs(room: String, hash: BlobHash) async throws -> RoomBlobs {
        try await reading {
            try await database.read { db in
                RoomBlobs(
                    recordedSize: try Self.recordedSize(room: room, hash: hash, in: db),
                    chargedBytes: try Self.chargedBytes(room: room, in: db)
                )
            }
        }
    }

    /// The size recorded for the blob `hash` in `room`, or nil when the room does not hold it.
    public func blobSize(room: String, hash: BlobHash) async throws -> Int? {
        try await reading { try await database.read { db in try Self.recordedSize(room: room, hash: hash, in: db) } }
    }

    /// What `room`'s blobs count against its quota.
    public func blobBytes(room: String) async throws -> Int {
        try await reading { try await database.read { db in try Self.chargedBytes(room: room, in: db) } }
    }

    /// Records that `room` holds the blob `hash` of `size` bytes, unless it already does or it would take
    /// the room's blobs past `quota` bytes (as ``charge(forBlobOf:)`` counts them). One transaction: of
    /// uploads racing for the room's last bytes, only those that fit are recorded.
    public func recordBlob(room: String, hash: BlobHash, size: Int, quota: Int) async throws -> BlobRecording {
        try await committing {
            try await database.write { db -> BlobRecording in
                if let recorded = try Self.recordedSize(room: room, hash: hash, in: db) {
                    return .alreadyRecorded(size: recorded)
                }
                let charged = try Self.chargedBytes(room: room, in: db)
                guard Self.charge(forBlobOf: size) <= quota - charged else { return .overQuota(chargedBytes: charged) }
                try db.execute(
                    sql: "INSERT INTO room_blob (room, hash, size) VALUES (?, ?, ?)",
                    arguments: [room, Data(hash.digest), Int64(size)]
                )
                return .recorded
            }
        }
    }

    /// Forgets that `room` holds the blob `hash`: for an upload whose file could not be installed after it
    /// was recorded, so the room is not charged for bytes it cannot read.
    public func forgetBlob(room: String, hash: BlobHash) async throws {
        try await committing {
            try await database.write { db in
                try db.execute(
                    sql: "DELETE FROM room_blob WHERE room = ? AND hash = ?",
                    arguments: [room, Data(hash.digest)]
                )
            }
        }
    }

    private static func recordedSize(room: String, hash: BlobHash, in db: Database) throws -> Int? {
        try Int64.fetchOne(
            db,
            sql: "SELECT size FROM room_blob WHERE room = ? AND hash = ?",
            arguments: [room, Data(hash.digest)]
        )
        .map { Int($0) }
    }

    private static func chargedBytes(room: String, in db: Database) throws -> Int {
        let charged = try Int64.fetchOne(
            db,
            sql: "SELECT IFNULL(SUM(MAX(size, ?)), 0) FROM room_blob WHERE room = ?",
            arguments: [Int64(minimumBlobCharge), room]
        )
        return Int(charged ?? 0)
    }
}
