import Foundation
import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellWire
import Logging
import Synchronization

/// A device in the simulation: the real `SyncClient` on the real ``Store``, its every task run by the
/// simulation's scheduler on the device's own executor, connecting through the simulation's network
/// (``SimulatedTransport``) and sleeping on its timers (``SimulatedTimekeeper``). What it does on a full
/// or failing disk, on a lost connection or a refused push is the client's own code.
///
/// A crash kills the device's executor, so nothing of the old process reaches the world again, closes its
/// store, and is a power cut for its files (``PowerSupply``): what SQLite had not synced is lost or torn;
/// what it committed stays. The device starts again from its store, as the app would.
final class SimulatedClient {
    let index: Int
    let folder: URL
    let configuration: Store.Configuration
    let clock: SimulatedWallClock
    /// The health of the disk under ``folder``, as the simulation set it.
    private(set) var disk = PowerSupply.Disk.healthy
    /// The running process: its store, client and executor.
    private var process: Running?
    /// Changes this device made (the client stored them and said so).
    private(set) var made: [ChangeID] = []
    /// Its strokes, to extend some of them later.
    private var strokes: [StrokeID] = []
    /// Seeds each start's client (its backoff's jitter).
    private var seeds: SplitMix64
    /// How each run of the client that ended while its process lived ended: it never should.
    private(set) var stoppedRuns: [String] = []

    private struct Running {
        let store: Store
        let client: SyncClient
        let executor: SimulationScheduler.ProcessExecutor
        /// How the client's `run()` ended, once it has.
        let ended: Ending
    }

    /// How a client's `run()` ended, set by its task.
    private final class Ending: Sendable {
        private let outcome = Mutex<String?>(nil)

        var value: String? { outcome.withLock { $0 } }

        func set(_ value: String) { outcome.withLock { $0 = value } }
    }

    init(
        index: Int,
        folder: URL,
        configuration: Store.Configuration,
        clock: SimulatedWallClock,
        seed: UInt64
    ) throws {
        self.index = index
        self.folder = folder
        self.configuration = configuration
        self.clock = clock
        self.seeds = SplitMix64(seed: seed)
        try PowerSupply.connect(folder)
    }

    var isUp: Bool { process != nil }

    var store: Store {
        get throws {
            guard let process else { throw SimulationError("client \(index) is down") }
            return process.store
        }
    }

    /// Makes the disk healthy, full or failing.
    func setDisk(_ health: PowerSupply.Disk) {
        disk = health
        PowerSupply.set(folder, disk: health)
    }

    /// Whether an error is one the disk's state explains, rather than a power cut or a bug.
    private func isStorageFault(_ error: any Error) -> Bool {
        disk != .healthy && !PowerSupply.isCut(folder)
    }

    // MARK: Running

    /// Opens the store and starts the client, following the board's room from its stored watermark.
    func start(in world: Simulation) throws {
        precondition(process == nil, "client \(index) is already running")
        let store = try Store(directory: folder.path, configuration: configuration)
        var logger = Logger(label: "inkwell.simulation.client") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        var settings = SyncClient.Configuration(
            backoff: Backoff(minimum: .milliseconds(100), maximum: .seconds(5)),
            randomSeed: seeds.next(),
            maximumPacksInFlight: 4,
            pingInterval: nil,
            wallClock: clock,
            timekeeper: world.timekeeper,
            documentTypes: DocumentTypes(documents: [BoardState.self]),
            snapshotThreshold: world.compaction?.snapshotThreshold,
            snapshotDelay: world.compaction?.snapshotDelay ?? .zero
        )
        let executor = world.scheduler.makeExecutor(for: .client(index))
        settings.transport = SimulatedTransport(client: index, network: SimulationHandle(world, process: executor))
        settings.taskExecutor = executor
        let client = try SyncClient(
            store: store,
            url: URL(string: "ws://server.simulation/sync")!,
            rooms: [Simulation.room],
            configuration: settings,
            logger: logger
        )
        let ended = Ending()
        process = Running(store: store, client: client, executor: executor, ended: ended)
        executor.start {
            let outcome: String
            do {
                try await client.run()
                outcome = "stopped"
            } catch {
                outcome = "\(error)"
            }
            // A process that crashed runs its tasks down: its run ending then says nothing.
            if !executor.isDead { ended.set(outcome) }
        }
    }

    /// The process ends at once: its tasks are cancelled and reach nothing more, and its store's files are
    /// closed.
    func shutDown(in world: Simulation) {
        guard let process else { return }
        if let ended = process.ended.value { stoppedRuns.append(ended) }
        world.scheduler.kill(process.executor)
        try? process.store.close()
        self.process = nil
    }

    /// The power goes: the process with it, and what its store had not synced (torn or lost as `seed`
    /// picks). Returns the unsynced writes the cut found.
    func crash(seed: UInt64, in world: Simulation) throws -> UInt64 {
        PowerSupply.cut(folder)
        shutDown(in: world)
        return try PowerSupply.restore(folder, seed: seed)
    }

    // MARK: Drawing

    /// Draws a stroke, or extends one of its own, through `SyncClient.record`: stored and queued at once,
    /// pushed when the client can.
    func draw(using random: inout SplitMix64, in world: Simulation) throws {
        guard let process else { throw SimulationError("client \(index) draws while down") }
        let points = (0..<Int.random(in: 2...12, using: &random)).map { _ in
            InkGrid.snap(
                Point(x: Double.random(in: 0...800, using: &random), y: Double.random(in: 0...600, using: &random))
            )
        }
        let operation: BoardOperation
        if let stroke = strokes.randomElement(using: &random), Bool.random(using: &random) {
            operation = .appendPoints(stroke, points: points, pressures: nil)
        } else {
            operation = .addStroke(
                StrokeStyle(colour: Colour(rgba: 0x1F1F_1FFF), width: 2),
                points: points,
                pressures: nil
            )
        }
        let edit = BoardEdit(board: BoardID(Simulation.board), operations: [operation])
        let client = process.client
        let recorded = try world.evaluate(on: process.executor) {
            try await client.record(edit, room: Simulation.room).id
        }
        let id: ChangeID
        switch recorded {
        case .success(let made): id = made
        case .failure(let error) where isStorageFault(error):
            // Not stored, so not made: the user sees the stroke was not saved.
            world.record("client \(index) could not save a stroke")
            world.counts.unsavedEdits += 1
            return
        case .failure(let error): throw error
        }
        if case .addStroke = operation { strokes.append(StrokeID(change: id)) }
        made.append(id)
        world.record("client \(index) draws \(id.seq)")
    }

    // MARK: Checking

    /// How the client's runs ended while their processes lived, this one's included: none should have.
    var runsThatStopped: [String] {
        stoppedRuns + (process?.ended.value.map { [$0] } ?? [])
    }

    /// Whether this device is connected, has nothing in flight or left to send, and holds the room
    /// through `head`; a device whose room is full keeps what it refused.
    func isSettled(head: UInt64, in world: Simulation) throws -> Bool {
        guard let process else { return false }
        let client = process.client
        let standing = try world.evaluate(on: process.executor) {
            await client.standing(in: Simulation.room)
        }.get()
        guard let standing, standing.isConnected, standing.inFlight == 0, standing.caughtUp,
            standing.watermark >= head
        else { return false }
        if standing.refusalCode == ErrorCode.roomFull.rawValue { return true }
        return try process.store.outbox(limit: 1).isEmpty
    }

    /// Where the device stands, for a report: up or down, its connection, what it has in flight and
    /// queued, and how far it holds the room.
    func describe(in world: Simulation) throws -> String {
        guard let process else { return "is down" }
        let client = process.client
        let standing = try world.evaluate(on: process.executor) { await client.standing(in: Simulation.room) }.get()
        let queued = try process.store.outbox().count
        guard let standing else { return "does not follow the room" }
        return """
            is \(standing.isConnected ? "connected" : "not connected"), \(standing.inFlight) packs in flight, \
            \(queued) changes queued, \(standing.caughtUp ? "caught up" : "not caught up") through \
            \(standing.watermark)\(standing.refusalCode.map { ", refused (\($0))" } ?? "")
            """
    }

    /// The server's refusal of the room on the current connection, if any: only a full room's is expected.
    func refusal(in world: Simulation) throws -> UInt32? {
        guard let process else { return nil }
        let client = process.client
        return try world.evaluate(on: process.executor) { await client.refusalCode(room: Simulation.room) }.get()
    }

    /// The changes the server acknowledged to this device: those it made that its outbox no longer holds.
    func acknowledged() throws -> Set<ChangeID> {
        let queued = Set(try store.outbox().map(\.id))
        return Set(made).subtracting(queued)
    }

    /// The board as this device's store holds it.
    func board() throws -> BoardState {
        try Simulation.board(from: try store)
    }
}
