import Foundation
import InkwellServer
import InkwellSync
import InkwellWire
import Logging

/// The server's I/O shell in the simulation: one real ``ServerSession`` per connection, the real
/// ``PackLog`` on a real SQLite file, and in between what `SyncEndpoint` does (authorising open rooms,
/// committing pushes before acking them, catching a follower up and sending it each new pack).
///
/// Commits take simulated time: a crash before a push's commit loses the push, which was never acked. A
/// crash is a power cut (``PowerSupply``): what SQLite had not synced is lost or torn. A full or failing
/// disk stops the log as it stops the real server's (fail-stop): every later push is answered
/// `storageFailed` until the process restarts, which the simulation does once the disk is back. A room
/// past its quota refuses pushes with `roomFull`.
final class SimulatedServer {
    /// Where a connection stands: its session, and the rooms it follows live.
    struct Link {
        var session: ServerSession
        var following: Set<String> = []
    }

    let replica: ReplicaID
    let folder: URL
    let clock: SimulatedWallClock
    /// The most bytes of packs a room keeps (``PackLog/maximumRoomBytes``).
    let roomQuota: UInt64
    /// The health of the disk under ``folder``, as the simulation set it.
    private(set) var disk = PowerSupply.Disk.healthy
    /// The log, while the process runs.
    private var openLog: PackLog?
    private(set) var links: [Int: Link] = [:]
    /// Bumped by each crash: a commit scheduled before one is lost with it.
    private(set) var generation = 0
    private(set) var isUp = true
    /// Every ack sent, by pack: what must survive everything.
    private(set) var acknowledged: [PackID: (room: String, position: UInt64)] = [:]
    /// Each room's newest position, as the log holds it.
    private var heads: [String: UInt64] = [:]

    init(replica: ReplicaID, folder: URL, clock: SimulatedWallClock, roomQuota: UInt64 = .max) throws {
        self.replica = replica
        self.folder = folder
        self.clock = clock
        self.roomQuota = roomQuota
        try PowerSupply.connect(folder)
        openLog = try openLogFile()
    }

    /// The log on its file, logging nothing: a power cut mid-commit is a fault the run plans, and says so.
    private func openLogFile() throws -> PackLog {
        try PackLog(
            path: folder.appendingPathComponent("packs.sqlite").path,
            maximumRoomBytes: roomQuota,
            wallClock: clock,
            logger: Logger(label: "inkwell.simulation.pack-log") { _ in SwiftLogNoOpLogHandler() }
        )
    }

    /// Makes the disk healthy, full or failing.
    func setDisk(_ health: PowerSupply.Disk) {
        disk = health
        PowerSupply.set(folder, disk: health)
    }

    /// Whether the log stopped on a storage fault: it stores nothing more until the process restarts.
    var hasFailed: Bool { openLog?.fault != nil }

    /// Whether an error is one a storage fault explains (not a power cut, which crashes the process, and
    /// not a bug): the disk is not healthy, or the log already stopped on one.
    private func isStorageFault(_ error: any Error) -> Bool {
        !PowerSupply.isCut(folder) && (disk != .healthy || error is StorageFault)
    }

    var log: PackLog {
        get throws {
            guard let openLog else { throw SimulationError("the server is down") }
            return openLog
        }
    }

    // MARK: Connections

    func open(_ id: Int, at now: ContinuousClock.Instant) {
        links[id] = Link(session: ServerSession(server: replica, wallClock: clock, now: now))
    }

    func close(_ id: Int) {
        links[id] = nil
    }

    /// The power goes: sessions and pending commits with it, and what SQLite had not synced (torn or
    /// lost as `seed` picks). Returns the unsynced writes the cut found.
    @discardableResult
    func crash(seed: UInt64) throws -> UInt64 {
        PowerSupply.cut(folder)
        stop()
        return try PowerSupply.restore(folder, seed: seed)
    }

    /// The process ends, with its sessions and the commits it had pending; what it wrote stays with the
    /// operating system, synced or not.
    func stop() {
        links = [:]
        generation += 1
        isUp = false
        openLog = nil
    }

    /// Starts again on the same file.
    func restart() throws {
        openLog = try openLogFile()
        heads = [:]
        isUp = true
    }

    /// The room's newest position, read from the log once per process.
    func head(of room: String) throws -> UInt64 {
        if let head = heads[room] { return head }
        let head = try log.packs(room: room, after: 0, maximumBytes: .max).last?.serverSeq ?? 0
        heads[room] = head
        return head
    }

    /// A frame from connection `id`: the session's actions, carried out.
    func received(_ frame: [UInt8], on id: Int, in world: Simulation) throws {
        guard var link = links[id] else { return }
        let actions = link.session.received(frame, at: world.time.instant)
        links[id] = link
        try perform(actions, on: id, in: world)
    }

    // MARK: Actions

    func perform(_ actions: [ServerSession.Action], on id: Int, in world: Simulation) throws {
        for action in actions {
            guard links[id] != nil else { return }
            switch action {
            case .send(let message):
                world.sendToClient(SyncCodec.encode(message), on: id)
            case .close(let code, let reason):
                world.closeConnection(id, code: code.rawValue, reason: reason)
            case .catchUp(let room, let after):
                try catchUp(id, room: room, after: after, in: world)
            case .stopFollowing(let room):
                links[id]?.following.remove(room)
            case .append(let room, let pack, let bytes, let author, let snapshot):
                // A log stopped on a storage fault refuses at once, as the real server's does.
                if try log.fault != nil {
                    try perform(links[id]!.session.storageFailed(room: room), on: id, in: world)
                    continue
                }
                let push = PackLog.Push(room: room, pack: pack, bytes: bytes, author: author, snapshot: snapshot)
                if world.options.injectedBug == .ackBeforeCommit {
                    acknowledge(room: room, pack: pack, position: try head(of: room) + 1, on: id, in: world)
                }
                world.scheduleCommit(push, connection: id, generation: generation)
            case .recordCheck:
                // No snapshots are made in the simulation.
                break
            case .relay:
                break
            case .authorize(let room, let after, let capability):
                guard var link = links[id] else { return }
                let next = link.session.authorized(room: room, after: after, capability: capability, access: .open)
                links[id] = link
                try perform(next, on: id, in: world)
            case .authorizePush(let room, let pack):
                guard var link = links[id] else { return }
                let next = link.session.pushAuthorized(room: room, pack: pack, access: .open)
                links[id] = link
                try perform(next, on: id, in: world)
            case .register, .rotate, .revoke:
                // Open rooms only: never asked for.
                break
            }
        }
    }

    /// A push's commit, now due: stored, acked, and sent to the room's other followers.
    func commit(_ push: PackLog.Push, connection id: Int, generation scheduled: Int, in world: Simulation) throws {
        guard scheduled == generation, isUp else { return }
        let before: UInt64
        let result: PackLog.Appended?
        do {
            before = try head(of: push.room)
            result = try log.append([push]).first
        } catch  where isStorageFault(error) {
            world.record("commit \(push.room) failed: \(error)")
            world.counts.storageRefusals += 1
            if world.options.injectedBug == .ackFailedCommit {
                acknowledge(room: push.room, pack: push.pack, position: (heads[push.room] ?? 0) + 1, on: id, in: world)
                return
            }
            if let link = links[id] { try perform(link.session.storageFailed(room: push.room), on: id, in: world) }
            return
        }
        guard case .stored(let position) = result else {
            guard result == .roomFull else {
                world.fail("a push was not stored: \(String(describing: result))")
                return
            }
            world.record("commit \(push.room) refused: the room is full")
            world.counts.roomFullRefusals += 1
            if let link = links[id] { try perform(link.session.roomFull(room: push.room), on: id, in: world) }
            return
        }
        let duplicate = position <= before
        heads[push.room] = max(before, position)
        world.record("commit \(push.room) \(position)\(duplicate ? " again" : "")")
        if !(duplicate && world.options.injectedBug == .dropDuplicateAck), world.options.injectedBug != .ackBeforeCommit
        {
            acknowledge(room: push.room, pack: push.pack, position: position, on: id, in: world)
        }
        guard !duplicate, world.options.injectedBug != .skipLiveFanout else { return }
        let frame = SyncCodec.encode(
            .packs(room: push.room, packs: [StoredPack(serverSeq: position, bytes: push.bytes)], head: position)
        )
        for (other, link) in links.sorted(by: { $0.key < $1.key })
        where other != id && link.following.contains(push.room) {
            world.sendToClient(frame, on: other)
        }
    }

    private func acknowledge(room: String, pack: PackID, position: UInt64, on id: Int, in world: Simulation) {
        guard let link = links[id] else { return }
        acknowledged[pack] = (room, position)
        for action in link.session.stored(room: room, pack: pack, serverSeq: position) {
            if case .send(let message) = action { world.sendToClient(SyncCodec.encode(message), on: id) }
        }
    }

    /// Sends the room's packs after `after`, then the progress that says the follower is caught up, and
    /// from then on each new pack. A log it cannot read ends the connection with `storageFailed`, as the
    /// real server's does: the device comes back after its backoff.
    private func catchUp(_ id: Int, room: String, after: UInt64, in world: Simulation) throws {
        do {
            try sendCatchUp(id, room: room, after: after, in: world)
        } catch  where isStorageFault(error) {
            world.record("catch-up of \(room) failed: \(error)")
            guard var link = links[id] else { return }
            let actions = link.session.refuse(
                .storageFailed,
                "the server could not read the room's log; try again later",
                close: .internalError
            )
            links[id] = link
            try perform(actions, on: id, in: world)
        }
    }

    private func sendCatchUp(_ id: Int, room: String, after: UInt64, in world: Simulation) throws {
        var position = after
        while true {
            let packs = try log.packs(room: room, after: position, maximumBytes: 64 << 10)
            guard let last = packs.last else { break }
            world.sendToClient(SyncCodec.encode(.packs(room: room, packs: packs, head: last.serverSeq)), on: id)
            position = last.serverSeq
        }
        let head = max(position, try head(of: room))
        world.sendToClient(
            SyncCodec.encode(.progress(room: room, head: head, bytesBehind: 0, packsBehind: 0)),
            on: id
        )
        links[id]?.following.insert(room)
    }
}
