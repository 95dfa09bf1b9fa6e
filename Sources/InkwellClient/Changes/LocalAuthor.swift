public import InkwellStore
public import InkwellSync
import InkwellWire

/// Turns this device's edits into stored, queued changes: the one place local changes get their ids and stamps.
///
/// A change to a room is written under the store's replica for that room (``Store/replica(for:)``) with the
/// next seq of that timeline, so each room's timelines stay contiguous. Stamps come from a hybrid logical
/// clock resumed from the greatest stamp in the store and told about every remote stamp, so a new change
/// sorts after everything this device has seen.
///
/// One author per store: two authors would hand out the same seq twice, which the store refuses.
public struct LocalAuthor: Sendable {
    public let store: Store
    public private(set) var clock: HybridLogicalClock
    private let wallClock: any WallClock
    /// ``Store/replica(for:)`` writes on first use; asking once per room keeps recording to one transaction.
    private var replicas: [String: ReplicaID] = [:]

    /// Resumes the clock from the store.
    public init(store: Store, wallClock: any WallClock = SystemWallClock()) throws {
        self.store = store
        self.wallClock = wallClock
        self.clock = HybridLogicalClock(latest: try store.latestStamp)
    }

    /// Stamps `edit` as this device's next change to `room`, stores it and queues it for upload, in one
    /// transaction.
    ///
    /// - Throws: `WireError` for an edit no peer could read (an empty document name, more than
    ///   `WireLimits.maximumOperationsPerChange` operations or `maximumChangeBytes` bytes: make a large edit
    ///   as several changes); ``StoreError`` when the store refuses it (a failing disk). Then nothing is
    ///   stored and the clock and seq are not used up.
    /// - Complexity: O(size of the edit) plus O(log n) in a store of n changes.
    public mutating func record<Edit: DocumentEdit>(_ edit: Edit, room: String) throws -> Change<Edit> {
        let replica = try replica(for: room)
        var next = clock
        let change = Change(
            id: ChangeID(replica: replica, seq: try store.lastSeq(of: replica) + 1),
            stamp: next.next(wallMilliseconds: wallClock.millisecondsSince1970()),
            payload: edit
        )
        let stored = StoredChange(change, room: room)
        // Read back as every peer will read it: a change they would refuse must not be made at all.
        _ = try ChangeCodec.decode(stored.payload)
        try store.append([stored], enqueue: true)
        clock = next
        return change
    }

    /// Takes note of a stamp made elsewhere, so that later local changes sort after it.
    ///
    /// - Returns: the skew when `stamp` is far ahead of this device's wall clock: worth a log line.
    @discardableResult
    public mutating func witness(_ stamp: Stamp) -> HybridLogicalClock.Skew? {
        clock.witness(stamp, wallMilliseconds: wallClock.millisecondsSince1970())
    }

    private mutating func replica(for room: String) throws -> ReplicaID {
        if let known = replicas[room] { return known }
        let replica = try store.replica(for: room)
        replicas[room] = replica
        return replica
    }
}
