import Foundation
import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellWire
import Logging

/// A device's I/O shell in the simulation: the real ``ClientSession``, ``PackIntake``, ``LocalAuthor`` and
/// ``Store``, wired as `SyncClient` wires them, with the simulation's network and clock in place of a
/// socket and the system's.
///
/// A crash loses the session and its connection, and is a power cut for the store (``PowerSupply``): what
/// SQLite had not synced is lost or torn; what it committed stays. On a full or failing disk it does what
/// `SyncClient` does: a stroke that cannot be stored is not made (the user is told), packs that cannot be
/// stored end the connection so they come again after it, a watermark that cannot be stored is left
/// for later, and an acknowledgement or an outbox read that fails ends the connection, so the next one
/// pushes and reads again.
final class SimulatedClient {
    let index: Int
    let folder: URL
    let configuration: Store.Configuration
    let clock: SimulatedWallClock
    /// The health of the disk under ``folder``, as the simulation set it.
    private(set) var disk = PowerSupply.Disk.healthy
    /// The store, while the process runs.
    private var openStore: Store?
    /// The server's time, as the device learns it: what it stamps by and judges stamps by.
    private(set) var corrected: ServerCorrectedClock
    private(set) var session: ClientSession
    private var author: LocalAuthor?
    private var keys: [ReplicaID: AuthorKey] = [:]
    /// The connection this device is on or opening, if any.
    private(set) var connection: Int?
    private(set) var isUp = true
    /// Changes this device made, and those the server acknowledged to it.
    private(set) var made: [ChangeID] = []
    private(set) var acknowledged: Set<ChangeID> = []
    /// Its strokes, to extend some of them later.
    private var strokes: [StrokeID] = []
    private let logger: Logger

    init(
        index: Int,
        folder: URL,
        configuration: Store.Configuration,
        clock: SimulatedWallClock,
        device: ReplicaID
    ) throws {
        self.index = index
        self.folder = folder
        self.configuration = configuration
        self.clock = clock
        corrected = ServerCorrectedClock(local: clock)
        session = ClientSession(configuration: .init(device: device, maximumPacksInFlight: 4))
        var logger = Logger(label: "inkwell.simulation")
        logger.logLevel = .critical
        self.logger = logger
        try PowerSupply.connect(folder)
        try open()
    }

    var store: Store {
        get throws {
            guard let openStore else { throw SimulationError("client \(index) is down") }
            return openStore
        }
    }

    private func open() throws {
        let store = try Store(directory: folder.path, configuration: configuration)
        openStore = store
        author = try LocalAuthor(store: store, wallClock: corrected)
    }

    /// Makes the disk healthy, full or failing.
    func setDisk(_ health: PowerSupply.Disk) {
        disk = health
        PowerSupply.set(folder, disk: health)
    }

    /// Runs `body`, and takes an error a storage fault explains as `SyncClient` takes it: logged, and
    /// the work left for later. A power cut, or an error on a healthy disk, is thrown. Returns whether
    /// `body` ran to its end.
    @discardableResult
    private func tolerating(_ what: String, in world: Simulation, _ body: () throws -> Void) throws -> Bool {
        do {
            try body()
            return true
        } catch  where disk != .healthy && !PowerSupply.isCut(folder) {
            world.record("client \(index) could not \(what)")
            return false
        }
    }

    /// Closes the store at the end of a run.
    func shutDown() {
        author = nil
        openStore = nil
    }

    /// Follows the board's room from the stored watermark.
    func join(in world: Simulation) throws {
        try perform(session.join(Simulation.room, watermark: try store.watermark(room: Simulation.room)), in: world)
    }

    // MARK: Drawing

    /// Draws a stroke, or extends one of its own: stored and queued at once, pushed when it can be.
    func draw(using random: inout SplitMix64, in world: Simulation) throws {
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
        guard author != nil else { throw SimulationError("client \(index) draws while down") }
        let change: Change<BoardEdit>
        do {
            // In place, as `SyncClient` records: whatever a failed record leaves in the author stays.
            change = try author!.record(
                BoardEdit(board: BoardID(Simulation.board), operations: [operation]),
                room: Simulation.room
            )
        } catch  where disk != .healthy && !PowerSupply.isCut(folder) {
            // Not stored, so not made: the user sees the stroke was not saved.
            world.record("client \(index) could not save a stroke")
            world.counts.unsavedEdits += 1
            return
        }
        if case .addStroke = operation { strokes.append(StrokeID(change: change.id)) }
        made.append(change.id)
        world.record("client \(index) draws \(change.id.seq)")
        try perform(session.outboxChanged(), in: world)
    }

    // MARK: Connection

    func connecting(_ id: Int) {
        connection = id
        session.connecting()
    }

    func connected(in world: Simulation) throws {
        try perform(session.connected(), in: world)
    }

    func disconnected(_ id: Int, code: UInt16?, reason: String?, in world: Simulation) throws {
        guard connection == id else { return }
        connection = nil
        try perform(session.disconnected(closeCode: code, reason: reason), in: world)
    }

    /// The power goes: its session and connection with it, and what its store had not synced (torn or
    /// lost as `seed` picks). Returns the unsynced writes the cut found.
    func crash(seed: UInt64) throws -> UInt64 {
        connection = nil
        isUp = false
        PowerSupply.cut(folder)
        shutDown()
        return try PowerSupply.restore(folder, seed: seed)
    }

    /// Starts again from its store.
    func restart(in world: Simulation) throws {
        session = ClientSession(configuration: session.configuration)
        corrected = ServerCorrectedClock(local: clock)
        try open()
        isUp = true
        try join(in: world)
    }

    /// A frame from the server on connection `id`.
    func received(_ frame: [UInt8], on id: Int, in world: Simulation) throws {
        guard connection == id else { return }
        let message = try SyncCodec.decodeServer(frame)
        switch message {
        case .packs(let room, let packs, let head):
            let intake = PackIntake(
                store: try store,
                clock: corrected,
                documentTypes: DocumentTypes(documents: [BoardState.self])
            )
            let result: PackIntake.Result
            do {
                result = try intake.ingest(room: room, packs: packs, logger: logger)
            } catch  where disk != .healthy && !PowerSupply.isCut(folder) {
                // Not stored, so not seen: they come again on the next connection.
                world.record("client \(index) could not store packs")
                world.closeConnection(id, code: nil, reason: "the local store failed")
                connection = nil
                try perform(session.disconnected(closeCode: nil, reason: "the local store failed"), in: world)
                return
            }
            if let stamp = result.latestStamp { author?.witness(stamp) }
            try perform(
                session.stored(room: room, positions: result.positions, packBytes: result.packBytes, head: head),
                in: world
            )
        case .rebase:
            world.fail("client \(index) was sent a rebase, which the simulated server never sends")
        default:
            try perform(session.received(message), in: world)
        }
    }

    // MARK: Actions

    private func perform(_ actions: [ClientSession.Action], in world: Simulation) throws {
        var queue = actions[...]
        while let action = queue.popFirst() {
            switch action {
            case .send(let message):
                guard let connection else { continue }
                world.sendToServer(SyncCodec.encode(message), on: connection)
            case .persistWatermark(let room, let position):
                // Left behind, it costs a longer catch-up next time.
                try tolerating("store its watermark", in: world) { try store.setWatermark(room: room, to: position) }
            case .acknowledge(let changes):
                // The server said they are stored, whatever this store makes of it: left queued, they are
                // pushed again later and stored once.
                acknowledged.formUnion(changes)
                let taken = try tolerating("take acknowledged changes off its outbox", in: world) {
                    try store.acknowledge(changes)
                }
                if !taken { SyncClient.endAfterStoreFailure(&queue) }
            case .readOutbox(let limit):
                let read = try tolerating("read its outbox", in: world) {
                    let outbox = try store.outbox(limit: limit)
                    for replica in Set(outbox.map(\.id.replica)) where keys[replica] == nil {
                        keys[replica] = try store.authorKey(of: replica)
                    }
                    queue.append(contentsOf: session.plan(outbox: outbox, keys: keys))
                }
                if !read { SyncClient.endAfterStoreFailure(&queue) }
            case .learnServerTime(let milliseconds):
                corrected.learn(serverTime: milliseconds)
            case .deliver:
                break
            case .disconnect(let reason):
                if let connection { world.closeConnection(connection, code: nil, reason: reason) }
            case .fail(let error):
                world.fail("client \(index) failed: \(error)")
            case .granted:
                break
            case .refused(_, let code, _) where code == ErrorCode.roomFull.rawValue:
                // What the full room refused stays in the outbox; the next connection tries again.
                world.record("client \(index) was told the room is full")
            case .refused(_, let code, let message):
                world.fail("client \(index) was refused the open room (\(code)): \(message)")
            case .unsendable(let changes):
                world.fail("client \(index) cannot send \(changes.count) of its changes")
            }
        }
    }

    /// Whether this device has nothing left to send and holds the room through `head`.
    func isSettled(head: UInt64) throws -> Bool {
        guard connection != nil, session.inFlight.isEmpty, let room = session.rooms[Simulation.room],
            room.caughtUp, room.cursor.watermark >= head
        else { return false }
        // A full room keeps what it refused in the outbox, for good.
        if room.refusal?.code == ErrorCode.roomFull.rawValue { return true }
        return try store.outbox(limit: 1).isEmpty
    }

    /// The board as this device's store holds it.
    func board() throws -> BoardState {
        try Simulation.board(from: try store)
    }
}
