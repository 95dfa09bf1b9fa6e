import InkwellSync
import InkwellWire
import Synchronization

/// What one connection learns about each room's log that a snapshot is checked against, and the
/// snapshot parts it is gathering. Shared by the connection's reading task; one per connection.
///
/// For each room it keeps what this device held when it first heard of the room on this connection
/// (``RoomTrack/base``, with the watermark it stood at) and, for every pack received since, the
/// position and its author's newest seq in it. What a snapshot standing for position `p` must hold
/// (``required(room:through:)``) is then everything held before, when that came through `p` or earlier,
/// and every pack received at `p` or earlier.
final class SnapshotTracker: Sendable {
    /// The most bytes of unfinished snapshot parts held per room: a hostile author cannot make a
    /// device hold more.
    static let maximumPendingBytes = 512 << 20

    struct RoomTrack {
        /// Other authors' frontier and this device's acknowledged changes when the connection started,
        /// and the watermark it stood at.
        var base: VersionVector
        var baseWatermark: UInt64
        /// Each pack received since: its position, and its author's newest change in it.
        var received: [(position: UInt64, replica: ReplicaID, seq: UInt64)] = []
        /// Snapshots whose parts are arriving, with the bytes and positions of their parts so far.
        var assemblies: [SnapshotID: Pending] = [:]
    }

    /// A snapshot whose parts are arriving.
    struct Pending {
        var assembly: SnapshotAssembly
        var bytes = 0
        /// Where its parts came.
        var positions: [UInt64] = []
    }

    private let rooms = Mutex<[String: RoomTrack]>([:])
    /// This device's packs pushed on this connection and not acknowledged yet: their room, and the newest
    /// change of each replica in them.
    private let pushed = Mutex<[PackID: (room: String, newest: [ReplicaID: UInt64])]>([:])

    /// Starts tracking `room` unless it is already: `base` is what this device holds now.
    func start(room: String, base: @autoclosure () throws -> (VersionVector, UInt64)) rethrows {
        guard rooms.withLock({ $0[room] == nil }) else { return }
        let (vector, watermark) = try base()
        rooms.withLock { rooms in
            if rooms[room] == nil { rooms[room] = RoomTrack(base: vector, baseWatermark: watermark) }
        }
    }

    func isTracking(_ room: String) -> Bool { rooms.withLock { $0[room] != nil } }

    /// A pack at `position` held changes of `replica` up to `seq`.
    func received(room: String, position: UInt64, replica: ReplicaID, seq: UInt64) {
        rooms.withLock { $0[room]?.received.append((position, replica, seq)) }
    }

    /// This device pushed `pack`, holding `changes`, to `room`: once acknowledged it counts as received at
    /// the position the server gives it, so that a snapshot that leaves out this device's own changes is
    /// refused even if they were made after the connection started.
    func pushed(_ pack: PackID, room: String, changes: [ChangeID]) {
        var newest: [ReplicaID: UInt64] = [:]
        for change in changes { newest[change.replica] = max(newest[change.replica] ?? 0, change.seq) }
        pushed.withLock { $0[pack] = (room, newest) }
    }

    /// The server stored `pack` at `position`. Called by the reading task as the ack comes, so before
    /// any snapshot that the server logged after it is reviewed.
    func acknowledged(_ pack: PackID, room: String, position: UInt64) {
        guard let entry = pushed.withLock({ $0.removeValue(forKey: pack) }), entry.room == room else { return }
        for (replica, seq) in entry.newest { received(room: room, position: position, replica: replica, seq: seq) }
    }

    /// What a snapshot standing for `position` must hold, as far as this connection can tell.
    ///
    /// `baseFor`: whose timelines the base counts for, all by default. The base is everything held when
    /// the connection started, which is what came through its watermark, and also what live packs past a
    /// gap brought, from positions after it that this device never learnt. A rebase stands for packs this
    /// device never received, beyond its watermark, so it is held to the base of this device's own
    /// timeline alone (its acknowledged changes, which its author guards): seed 14852 of the simulation
    /// was refused a rebase for leaving out another author's change that had come after it.
    func required(room: String, through position: UInt64, baseFor only: ReplicaID? = nil) -> VersionVector {
        rooms.withLock { rooms in
            guard let track = rooms[room] else { return VersionVector() }
            var vector = VersionVector()
            if track.baseWatermark <= position {
                if let only {
                    vector[only] = track.base[only]
                } else {
                    vector = track.base
                }
            }
            for entry in track.received where entry.position <= position {
                vector[entry.replica] = max(vector[entry.replica], entry.seq)
            }
            return vector
        }
    }

    /// Adds a part. Returns the snapshot's parts once they are all here (and forgets them), `nil` while
    /// some are missing.
    ///
    /// - Throws: ``WireError/invalidSnapshot(_:)`` for a part whose siblings claim otherwise, or
    ///   ``WireError/tooLarge(_:)`` when the room's unfinished parts would pass ``maximumPendingBytes``
    ///   (they are all dropped).
    func add(_ part: ReceivedSnapshotPart, position: UInt64, bytes: Int) throws(WireError) -> Pending? {
        try rooms.withLock { (rooms) throws(WireError) -> Pending? in
            guard var track = rooms[part.room] else { return nil }
            defer { rooms[part.room] = track }
            let id = part.cover.id
            var pending = track.assemblies[id] ?? Pending(assembly: SnapshotAssembly(part))
            if track.assemblies[id] != nil {
                guard try pending.assembly.add(part) else { return nil }
            }
            pending.bytes += bytes
            pending.positions.append(position)
            guard
                track.assemblies.values.reduce(pending.bytes, { $0 + $1.bytes }) - (track.assemblies[id]?.bytes ?? 0)
                    <= Self.maximumPendingBytes
            else {
                track.assemblies = [:]
                throw .tooLarge("unfinished snapshots of the room")
            }
            guard pending.assembly.isComplete else {
                track.assemblies[id] = pending
                return nil
            }
            track.assemblies[id] = nil
            return pending
        }
    }

    /// A snapshot standing for `position` was taken: what came through it is folded into what this
    /// device holds, so later snapshots are held to it too. A snapshot taken in place of packs this device
    /// never received (a rebase) stands for what they held: its cut (`stoodFor`, this device's own
    /// timeline left out) is folded in as well, or a later snapshot could leave those changes out and be
    /// sent, and checked, from here.
    func settled(room: String, through position: UInt64, stoodFor: VersionVector = VersionVector()) {
        rooms.withLock { rooms in
            guard var track = rooms[room], track.baseWatermark <= position else { return }
            for entry in track.received where entry.position <= position {
                track.base[entry.replica] = max(track.base[entry.replica], entry.seq)
            }
            for (replica, seq) in stoodFor.entries { track.base[replica] = max(track.base[replica], seq) }
            track.received.removeAll { $0.position <= position }
            track.baseWatermark = position
            rooms[room] = track
        }
    }
}
