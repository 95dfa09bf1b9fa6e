import Foundation
import InkwellClient
import InkwellServer
import InkwellSync
import InkwellWire
import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket

/// The server in the simulation: the real sync side of `inkwell serve` (``SyncCore``: the endpoint that
/// runs each connection's session, the committer that stores pushes in groups after a linger, the hub
/// that fans packs out) on the real ``PackLog`` on SQLite, its every task run by the simulation's
/// scheduler on the server's own executor. What it writes goes into one embedded channel per connection
/// (NIO's `EmbeddedChannel`, on one embedded event loop the simulation runs after each of the server's
/// jobs), whose frames the simulation carries to the device; what it reads comes through a
/// ``SimulatedServerPeer``. The log's calls run on the caller's thread (``PackLog``'s `runsCallsInline`).
///
/// A crash kills the executor, so nothing of the old process reaches the world again, closes the log and
/// is a power cut for its files (``PowerSupply``). A full or failing disk stops the log as it stops the
/// real server's (fail-stop): every later push is answered `storageFailed` until the process restarts,
/// which the simulation does once the disk is back.
final class SimulatedServer {
    let replica: ReplicaID
    let folder: URL
    let clock: SimulatedWallClock
    /// The most bytes of packs a room keeps (``PackLog/maximumRoomBytes``).
    let roomQuota: UInt64
    /// How long the first push of a commit waits for company: the time a crash can take pushes in.
    let linger: Duration
    /// How the log takes snapshots and compacts, when it does.
    let compaction: CompactionPlan?
    /// The health of the disk under ``folder``, as the simulation set it.
    private(set) var disk = PowerSupply.Disk.healthy
    /// The running process.
    private var process: Running?
    /// The event loops of processes that ended: what their tasks still queue on them runs there, and
    /// goes nowhere.
    private var retiredLoops: [EmbeddedEventLoop] = []
    /// Every ack sent, by pack: what must survive everything.
    private(set) var acknowledged: [PackID: (room: String, position: UInt64)] = [:]

    private struct Running {
        let core: SyncCore
        /// The core's store, as the SQLite log it is here.
        let log: PackLog
        let executor: SimulationScheduler.ProcessExecutor
        let loop: EmbeddedEventLoop
        var connections: [Int: Link] = [:]
    }

    /// A connection as the server holds it: what it reads from, and the channel it writes to.
    private struct Link {
        let peer: SimulatedServerPeer
        let channel: EmbeddedChannel
        /// A message the server has sent part of, in fragments.
        var partial: [UInt8]?
    }

    init(
        replica: ReplicaID,
        folder: URL,
        clock: SimulatedWallClock,
        roomQuota: UInt64,
        compaction: CompactionPlan?,
        linger: Duration
    ) throws {
        self.replica = replica
        self.folder = folder
        self.clock = clock
        self.roomQuota = roomQuota
        self.compaction = compaction
        self.linger = linger
        try PowerSupply.connect(folder)
    }

    var isUp: Bool { process != nil }

    /// Makes the disk healthy, full or failing.
    func setDisk(_ health: PowerSupply.Disk) {
        disk = health
        PowerSupply.set(folder, disk: health)
    }

    var log: PackLog {
        get throws {
            guard let process else { throw SimulationError("the server is down") }
            return process.log
        }
    }

    /// Whether the log stopped on a storage fault: it stores nothing more until the process restarts.
    var hasFailed: Bool { process?.log.fault != nil }

    // MARK: The process

    /// Opens the log and starts the committer, and the compactor when the run compacts.
    func start(in world: Simulation) throws {
        precondition(process == nil, "the server is already running")
        let quiet = Logger(label: "inkwell.simulation.server") { _ in SwiftLogNoOpLogHandler() }
        let log = try PackLog(
            path: folder.appendingPathComponent("packs.sqlite").path,
            maximumRoomBytes: roomQuota,
            wallClock: clock,
            metrics: nil,
            logger: quiet,
            runsCallsInline: true,
            bytesBetweenSnapshots: compaction?.bytesBetweenSnapshots ?? PackLog.minimumBytesBetweenSnapshots
        )
        try checkAcknowledged(in: log, world: world)
        let core = SyncCore(
            id: replica,
            log: log,
            limits: ServerLimits(),
            commitLinger: linger,
            openRooms: true,
            timekeeper: world.timekeeper,
            wallClock: clock,
            injectedBug: world.options.injectedBug?.server,
            logger: quiet
        )
        let executor = world.scheduler.makeExecutor(for: .server)
        process = Running(core: core, log: log, executor: executor, loop: EmbeddedEventLoop())
        executor.start { await core.runCommitter() }
        if let compaction {
            let compactor = Compactor(
                log: log,
                retention: compaction.retention,
                interval: compaction.interval,
                metrics: ServerMetrics(),
                timekeeper: world.timekeeper,
                injectedBug: world.options.injectedBug?.server,
                logger: quiet
            )
            executor.start { await compactor.runUntilCancelled() }
        }
    }

    /// Every pack acknowledged is where its ack said, unless a compaction dropped it: checked each time the
    /// log opens, after a crash too, so that a pack lost and then compacted away is still caught.
    private func checkAcknowledged(in log: PackLog, world: Simulation) throws {
        let floor = try log.floor(room: Simulation.room)?.position ?? 0
        let stored = try log.packs(room: Simulation.room, after: floor, maximumBytes: .max)
        var byPosition: [UInt64: PackID] = [:]
        for pack in stored { byPosition[pack.serverSeq] = PackID(of: pack.bytes) }
        for (pack, place) in acknowledged.sorted(by: { $0.value.position < $1.value.position })
        where place.position > floor && byPosition[place.position] != pack {
            world.fail("the log opened without acknowledged pack \(pack) at \(place.position)")
        }
    }

    /// The process ends at once: its tasks are cancelled and reach nothing more, and its log's files are
    /// closed.
    func stop(in world: Simulation) {
        guard let process else { return }
        world.scheduler.kill(process.executor)
        try? process.log.close()
        retiredLoops.append(process.loop)
        self.process = nil
    }

    /// The power goes: the process with it, and what SQLite had not synced (torn or lost as `seed`
    /// picks). Returns the unsynced writes the cut found.
    @discardableResult
    func crash(seed: UInt64, in world: Simulation) throws -> UInt64 {
        PowerSupply.cut(folder)
        stop(in: world)
        return try PowerSupply.restore(folder, seed: seed)
    }

    /// Runs what ended processes' tasks queued on their event loops (writes to channels no one reads), so
    /// that it lets go of what it holds.
    func runDownRetiredLoops() {
        for loop in retiredLoops { loop.run() }
    }

    /// The room's newest position, as the log holds it.
    func head(of room: String) throws -> UInt64 {
        try log.packs(room: room, after: 0, maximumBytes: .max).last?.serverSeq ?? 0
    }

    // MARK: Connections

    /// A device's connection arrived: the endpoint serves it until either side closes it.
    func open(_ id: Int, in world: Simulation) {
        guard let process else { return }
        let network = SimulationHandle(world, process: process.executor)
        let peer = SimulatedServerPeer(id: id, network: network)
        let channel = EmbeddedChannel(loop: process.loop)
        // Open, as an accepted socket is: a closed one is the server dropping the connection.
        _ = channel.connect(to: try! SocketAddress(ipAddress: "127.0.0.1", port: 1))
        self.process?.connections[id] = Link(peer: peer, channel: channel)
        let core = process.core
        let logger = Logger(label: "inkwell.simulation.server") { _ in SwiftLogNoOpLogHandler() }
        process.executor.start {
            let outcome: String
            do {
                try await core.serve(peer, channel: channel, logger: logger)
                outcome = "the server ended the connection"
            } catch {
                outcome = "the server's connection failed: \(error)"
            }
            // The WebSocket layer closes what its handler leaves open.
            network.world?.serverEnded(id, reason: outcome)
        }
    }

    /// The connection ended: the endpoint's reader hears so.
    func close(_ id: Int) {
        guard let link = process?.connections.removeValue(forKey: id) else { return }
        link.peer.inbox.finish()
    }

    /// A frame from connection `id`.
    func received(_ frame: [UInt8], on id: Int) {
        process?.connections[id]?.peer.inbox.deliver(frame)
    }

    /// After each of the server's jobs: runs the event loop that writes to the channels, and carries
    /// what they were given to the devices, noting each ack. A channel the server closed drops its
    /// connection.
    func flush(in world: Simulation) throws {
        guard let process else { return }
        process.loop.run()
        for id in process.connections.keys.sorted() {
            guard var link = self.process?.connections[id] else { continue }
            while let frame = try link.channel.readOutbound(as: WebSocketFrame.self) {
                var data = frame.unmaskedData
                let bytes = data.readBytes(length: data.readableBytes) ?? []
                let message = (link.partial ?? []) + bytes
                guard frame.fin else {
                    link.partial = message
                    continue
                }
                link.partial = nil
                note(message, in: world)
                world.sendToClient(message, on: id)
            }
            self.process?.connections[id] = link
            if !link.channel.isActive {
                world.closeConnection(id, code: nil, reason: "the server dropped the socket")
            }
        }
    }

    /// Keeps every ack sent, to check that what it acknowledged survives, and counts pushes refused.
    private func note(_ frame: [UInt8], in world: Simulation) {
        switch try? SyncCodec.decodeServer(frame) {
        case .ack(let room, let pack, let position):
            acknowledged[pack] = (room, position)
        case .error(ErrorCode.storageFailed.rawValue, _, _, let room):
            world.record("push to \(room) refused: storage failed")
            world.counts.storageRefusals += 1
        case .rebase(let room, _, let position, _):
            world.record("rebase of \(room) through \(position)")
            world.counts.rebases += 1
        case .error(ErrorCode.roomFull.rawValue, _, _, let room):
            world.record("push to \(room) refused: the room is full")
            world.counts.roomFullRefusals += 1
        default:
            break
        }
    }
}

/// A connection as the server's endpoint reads it: the frames the device sent, in order, until the
/// connection ends; a close it sends goes to the device through the simulation's network.
final class SimulatedServerPeer: SyncPeer {
    let id: Int
    private let network: SimulationHandle
    let inbox = FrameInbox()

    init(id: Int, network: SimulationHandle) {
        self.id = id
        self.network = network
    }

    func receive(maximumBytes: Int, _ body: (SyncPeerMessage) async -> Bool) async throws {
        for await frame in inbox.frames {
            guard frame.count <= maximumBytes else { throw SimulationError("a message over \(maximumBytes) bytes") }
            guard await body(.binary(ByteBuffer(bytes: frame))) else { return }
        }
    }

    func close(code: CloseCode, reason: String) async throws {
        network.world?.closeConnection(id, code: code.rawValue, reason: reason)
    }
}
