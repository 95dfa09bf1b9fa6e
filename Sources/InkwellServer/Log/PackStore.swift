package import InkwellStore
package import InkwellSync
package import InkwellWire
package import NIOCore

/// Where a server keeps its rooms: their packs at their positions, devices' watermarks, rooms' access,
/// which blobs each room holds, snapshots and what compaction dropped. The server reaches its storage only
/// through this, so that one process on a SQLite file (``PackLog``) and several nodes on one PostgreSQL
/// (``PostgresPackLog``) run the same sessions, commits and fan-out, and the same tests hold of both.
///
/// Every store keeps these promises, whatever it runs on:
/// - ``append(_:watermarks:)`` commits one batch in one transaction and returns only once it is durable;
///   nothing it returns as stored is lost.
/// - A room's positions are 1, 2, 3, … in commit order: a reader never sees a position before an
///   earlier one that commits later.
/// - A pack pushed again keeps its first position; the same id with other bytes is refused.
/// - A watermark only moves forward.
package protocol PackStore: Sendable {
    /// The most pack bytes one room may hold; a push past it is ``PackLog/Appended/roomFull``.
    var maximumRoomBytes: UInt64 { get }
    /// What stopped the store taking commits for good, once something has (a failed `fsync` of a SQLite
    /// file); nil while it takes them. A store whose database is merely unreachable has no fault: its
    /// calls throw until it is back.
    var fault: StorageFault? { get }
    /// Whether the database answers now: for readiness checks. A store on a local file always does
    /// while it has no fault.
    func isReachable() async -> Bool

    /// The server's replica id, made when the store was created and the same for every node on it.
    func serverID() async throws -> ReplicaID

    // MARK: Packs

    /// Stores a batch of pushes in one transaction, with device watermarks, and returns what became of
    /// each push, in order. Nothing is acknowledged before this returns.
    func append(_ pushes: [PackLog.Push], watermarks: [PackLog.Watermark]) async throws -> [PackLog.Appended]
    /// The rooms that hold packs or a snapshot, by name: what a LAN hub relays to its upstream server.
    func roomNames() async throws -> [String]
    /// The room's newest position, 0 for a room with no packs. A read that fails throws.
    func head(room: String) async throws -> UInt64
    /// The heads of several rooms at once (rooms with no packs are left out): how a node that may have
    /// missed other nodes' notifications learns where its followed rooms stand.
    func heads(rooms: [String]) async throws -> [String: UInt64]
    /// The room's packs after `position`, oldest first, about `maximumBytes` of them and at least one.
    func packs(room: String, after position: UInt64, maximumBytes: Int) async throws -> [StoredPack]
    /// The packs of several rooms after a position each, oldest first, in one read of about
    /// `maximumBytes`: how a node of a cluster reads what other nodes committed once for all its
    /// followers. A room may come back with fewer packs than it holds when the budget ran out.
    func packs(after positions: [String: UInt64], maximumBytes: Int) async throws -> [String: [StoredPack]]
    /// The room's head and the bytes stored after `position`: what a subscriber still has to download.
    func progress(room: String, after position: UInt64) async throws -> (head: UInt64, bytesAfter: UInt64)
    /// The bytes the room's packs take: what counts toward ``maximumRoomBytes``.
    func bytes(room: String) async throws -> UInt64
    /// The next packs of several rooms in one read (see ``PackLog/catchUp(_:maximumBytes:allocator:)``).
    func catchUp(
        _ requests: [PackLog.CatchUpRequest],
        maximumBytes: Int,
        allocator: ByteBufferAllocator
    ) async throws -> [PackLog.CatchUpRead]

    // MARK: Watermarks

    /// Records that `device` holds the room up to `position`; never lowered.
    func setWatermark(room: String, device: ReplicaID, to position: UInt64) async throws
    /// Where `device` last said it stands in the room (0 if it never did).
    func watermark(room: String, device: ReplicaID) async throws -> UInt64

    // MARK: Access

    /// What `room` keeps: its hashes, `.open`, or nil when the store has no such room.
    func access(room: String) async throws -> RoomAccess?
    /// Registers a guarded room; registering again with the same admin hash changes nothing.
    func register(room: String, hashes: RoomAccess.Hashes) async throws -> RoomAccess.Registration
    /// Replaces the edit or view hash (an empty one keeps it) when `adminHash` is the room's.
    func rotate(
        room: String,
        adminHash: [UInt8],
        editHash: [UInt8],
        viewHash: [UInt8]
    ) async throws
        -> RoomAccess.Rotation

    // MARK: Blobs

    /// Whether `room` holds the blob `hash`, and what its blobs count against its quota.
    func blobs(room: String, hash: BlobHash) async throws -> PackLog.RoomBlobs
    /// The size recorded for the blob `hash` in `room`, or nil when the room does not hold it.
    func blobSize(room: String, hash: BlobHash) async throws -> Int?
    /// What `room`'s blobs count against its quota.
    func blobBytes(room: String) async throws -> Int
    /// Records that `room` holds the blob, unless it does or the room's quota would be passed: one
    /// transaction, so of uploads racing for a room's last bytes only those that fit are recorded.
    func recordBlob(room: String, hash: BlobHash, size: Int, quota: Int) async throws -> PackLog.BlobRecording
    /// Forgets that `room` holds the blob (an upload whose file could not be installed).
    func forgetBlob(room: String, hash: BlobHash) async throws

    // MARK: Snapshots and compaction

    /// Records that `signer` checked and holds a whole snapshot of the room, and moves `device`'s
    /// watermark to what it stands for. A check that counts for nothing is ignored.
    ///
    /// - Returns: whether it was recorded.
    func recordCheck(room: String, snapshot: SnapshotID, signer: ReplicaID, device: ReplicaID?) async throws -> Bool
    /// What the store keeps in place of the room's dropped packs; nil while it has dropped none.
    func floor(room: String) async throws -> PackLog.Floor?
    /// The parts of a snapshot the room holds, in order, each at its position.
    func snapshotParts(room: String, snapshot: SnapshotID) async throws -> [StoredPack]
    /// Drops, in every room that allows it, the packs a snapshot checked by every present author stands
    /// for (the rule is in PackLog+Snapshots.swift), each room in its own transaction.
    func compact(retention: Duration, injectedBug: InjectedServerBug?) async throws -> [PackLog.Compaction]
}
