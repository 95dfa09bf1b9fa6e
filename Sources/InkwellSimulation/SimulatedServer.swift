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
/// crash is a power cut (``PowerSupply``): what SQLite had not synced is lost or torn.
final class SimulatedServer {
    /// Where a connection stands: its session, and the rooms it follows live.
    struct Link {
        var session: ServerSession
        var following: Set<String> = []
    }

    let replica: ReplicaID
    let folder: URL
    let clock: SimulatedWallClock
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

    init(replica: ReplicaID, folder: URL, clock: SimulatedWallClock) throws {
        self.replica = replica
        self.folder = folder
        self.clock = clock
        try PowerSupply.connect(folder)
        openLog = try Self.openLog(in: folder, clock: clock)
    }

    /// The log on its file, logging nothing: a power cut mid-commit is a fault the run plans, and says so.
    private static func openLog(in folder: URL, clock: SimulatedWallClock) throws -> PackLog {
        try PackLog(
            path: folder.appendingPathComponent("packs.sqlite").path,
            wallClock: clock,
            logger: Logger(label: "inkwell.simulation.pack-log") { _ in SwiftLogNoOpLogHandler() }
        )
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
        links = [:]
        generation += 1
        isUp = false
        PowerSupply.cut(folder)
        openLog = nil
        return try PowerSupply.restore(folder, seed: seed)
    }

    /// Starts again on the same file.
    func restart() throws {
        openLog = try Self.openLog(in: folder, clock: clock)
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
        let before = try head(of: push.room)
        let result = try log.append([push])
        guard case .stored(let position) = result.first else {
            if let link = links[id] { try perform(link.session.storageFailed(room: push.room), on: id, in: world) }
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
    /// from then on each new pack.
    private func catchUp(_ id: Int, room: String, after: UInt64, in world: Simulation) throws {
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
