import Crypto
import Foundation
import InkwellBoard
import InkwellClient
import InkwellServer
import InkwellStore
import InkwellSync
import InkwellWire
import Synchronization

/// A whole deployment in one process, on a simulated clock and scheduler: the server is the sync side of
/// `inkwell serve` (`SyncCore`) on its log, each device the real `SyncClient` on its store, with the real
/// session state machines, codecs and merge code under them; only the sockets, time, disks and the
/// scheduling of tasks are simulated. One seed gives one run, event for event and job for job.
///
/// The run has two parts. While it is faulty, devices draw at random times, and the network drops
/// connections, partitions devices away and delays frames; the server and devices crash and restart; their
/// disks fill up or fail for a while; device clocks are skewed and jump. One seed in four gives the room a
/// quota it may reach; one in two has devices send snapshots and the server compact its log
/// (``CompactionPlan``). Then the network heals, everything comes back, and the devices must
/// converge. ``SimulationVerdict`` says what was checked.
public final class Simulation {
    static let room = "simulated-board"
    static let board = "main"

    public let seed: UInt64
    public let options: SimulationOptions
    let time = SimulatedTime()
    /// Where the processes' tasks run, and the timers they sleep on.
    let scheduler: SimulationScheduler
    let timers = SimulatedTimers()
    var timekeeper: SimulatedTimekeeper { SimulatedTimekeeper(time: time, timers: timers) }
    private var random: SplitMix64
    private var events = EventQueue<Event>()
    private var trace = SHA256()
    private(set) var eventCount = 0
    private(set) var failures: [String] = []
    private var server: SimulatedServer!
    private var clients: [SimulatedClient] = []
    private let folder: URL

    /// Open connections: the client at each end, and when each direction's next frame may arrive (frames
    /// keep their order on a connection, as on a WebSocket).
    private struct Connection {
        let client: Int
        let link: SimulatedLink
        var toServer: UInt64 = 0
        var toClient: UInt64 = 0
    }

    private var connections: [Int: Connection] = [:]
    private var nextConnection = 1
    /// Devices cut off from the server until the time given.
    private var partitioned: [Int: UInt64] = [:]
    private var healed = false
    /// Whether every device caught up, with nothing left to send, once healed.
    private(set) var settled = false
    /// Figures for the report.
    var counts = SimulationCounts()
    /// The most bytes of packs the room keeps, when this seed gives it a quota.
    private(set) var roomQuota: UInt64?
    /// How the run takes snapshots and compacts the log, when this seed has it do so.
    private(set) var compaction: CompactionPlan?

    enum Event {
        case draw(client: Int)
        case connected(connection: Int)
        case toServer(connection: Int, frame: [UInt8])
        case toClient(connection: Int, frame: [UInt8])
        case closed(connection: Int, code: UInt16?, reason: String)
        case fault
        case restartServer
        case restartClient(Int)
        case serverDiskRecovers
        case clientDiskRecovers(Int)
        case heal
    }

    public init(seed: UInt64, options: SimulationOptions = SimulationOptions()) {
        self.seed = seed
        self.options = options
        random = SplitMix64(seed: seed)
        scheduler = SimulationScheduler(seed: random.next())
        let base =
            FileManager.default.fileExists(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        folder = base.appendingPathComponent("inkwell-simulation-\(ProcessInfo.processInfo.processIdentifier)-\(seed)")
    }

    // MARK: Running

    /// Runs the seed to its end and checks what must hold. Call it on the thread that made the simulation,
    /// outside any task: the processes' tasks run on that thread, one job at a time.
    public func run() throws -> SimulationVerdict {
        precondition(scheduler.isOnSimulationThread, "a simulation runs on the thread that made it")
        precondition(
            withUnsafeCurrentTask { $0 == nil },
            "a simulation runs its processes' tasks itself, outside any task"
        )
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            server?.stop(in: self)
            for client in clients { client.shutDown(in: self) }
            windDown()
            server = nil
            clients = []
            PowerSupply.disconnect(folder.appendingPathComponent("server"))
            for index in 0..<options.clients {
                PowerSupply.disconnect(folder.appendingPathComponent("client-\(index)"))
            }
            try? FileManager.default.removeItem(at: folder)
        }
        var identities = SplitMix64(seed: random.next())
        let serverClock = SimulatedWallClock(time: time)
        if Int.random(in: 0..<4, using: &random) == 0 {
            roomQuota = UInt64.random(in: 2_000...12_000, using: &random)
        }
        if Bool.random(using: &random) { compaction = CompactionPlan(using: &random) }
        server = try SimulatedServer(
            replica: ReplicaID(using: &identities),
            folder: folder.appendingPathComponent("server"),
            clock: serverClock,
            roomQuota: roomQuota ?? .max,
            compaction: compaction,
            linger: .milliseconds(Int.random(in: 1...20, using: &random))
        )
        try server.start(in: self)
        for index in 0..<options.clients {
            let source = SeededSource(seed: identities.next())
            // The device is its store's replica, drawn from `source`; this draw only keeps every seed's run
            // as BENCHMARKS.md records it.
            _ = ReplicaID(using: &identities)
            let clock = SimulatedWallClock(
                time: time,
                skewMilliseconds: Int64.random(in: -2_000...2_000, using: &random)
            )
            let client = try SimulatedClient(
                index: index,
                folder: folder.appendingPathComponent("client-\(index)"),
                configuration: Store.Configuration(randomness: { source.next() }),
                clock: clock,
                seed: identities.next()
            )
            clients.append(client)
            try client.start(in: self)
            for _ in 0..<options.strokesPerClient {
                schedule(.draw(client: index), after: UInt64.random(in: 0...options.faultyMilliseconds, using: &random))
            }
        }
        var faultTime: UInt64 = 0
        while faultTime < options.faultyMilliseconds {
            faultTime += UInt64.random(in: 200...2_000, using: &random)
            schedule(.fault, after: faultTime)
        }
        schedule(.heal, after: options.faultyMilliseconds)

        let deadline = options.faultyMilliseconds + options.settleMilliseconds
        while true {
            try runJobs()
            // A device whose planned power cut came while its tasks ran crashed for it.
            _ = try lostPower()
            if healed, try isSettled() {
                settled = true
                break
            }
            let timer = timers.earliest
            guard let when = [timer, events.nextTime].compactMap({ $0 }).min(), when <= deadline else { break }
            time.advance(to: when)
            // Sleepers due wake before events due at the same time.
            if when == timer {
                timers.wake(through: when)
                continue
            }
            let (_, event) = events.next()!
            eventCount += 1
            do {
                try handle(event)
            } catch {
                // A node whose planned power cut came mid-write crashed for it; any other error is the run's.
                guard try lostPower() else { throw SimulationError("at \(time.now) ms, handling \(event): \(error)") }
            }
        }
        if !settled {
            let quiet = events.isEmpty && timers.earliest == nil
            fail(
                quiet
                    ? "the devices did not settle, and nothing was left to happen: \(try unsettled())"
                    : "the devices did not settle within \(options.settleMilliseconds) ms of the network healing: "
                        + (try unsettled())
            )
        }
        if scheduler.foreignJobs > 0 {
            fail("\(scheduler.foreignJobs) jobs were enqueued from other threads: the run may not replay")
        }
        return try SimulationVerdict(checking: self, clients: clients, server: server)
    }

    /// The trace hash so far: the same seed gives the same hash.
    public var traceHash: String {
        trace.finalize().map { String(format: "%02x", $0) }.joined().prefix(16).description
    }

    func record(_ line: String) {
        let entry = "\(time.now) \(line)\n"
        trace.update(data: Data(entry.utf8))
        if options.printsTrace { print("seed \(seed): \(entry)", terminator: "") }
    }

    func fail(_ reason: String) {
        failures.append("at \(time.now) ms: \(reason)")
    }

    private func schedule(_ event: Event, after delay: UInt64) {
        events.schedule(event, at: time.now + delay)
    }

    // MARK: The processes' tasks

    /// Runs one ready job of a process, if any is ready. A process whose power was cut by it (a planned
    /// cut that came mid-write) runs nothing more; the run loop then crashes it (``lostPower()``). After a
    /// job of the server, what it wrote goes out.
    private func runJob() throws -> Bool {
        guard let executor = scheduler.runOne() else { return false }
        // A process that crashed runs down its tasks, reaching nothing.
        guard !executor.isDead else { return true }
        switch executor.node {
        case .server:
            if PowerSupply.isCut(server.folder) {
                scheduler.kill(executor)
            } else {
                try server.flush(in: self)
            }
        case .client(let index):
            if PowerSupply.isCut(clients[index].folder) { scheduler.kill(executor) }
        }
        return true
    }

    /// The server's handler for connection `id` returned: the WebSocket layer closes what it left open.
    func serverEnded(_ id: Int, reason: String) {
        guard connections[id] != nil else { return }
        closeConnection(id, code: SyncTransportClose.normalClosure, reason: reason)
    }

    /// Runs the processes' jobs until every task waits on time or the network.
    private func runJobs() throws {
        var ran = 0
        while try runJob() {
            ran += 1
            guard ran < 10_000_000 else { throw SimulationError("the processes' tasks never wait: a livelock") }
        }
    }

    /// Once every process is stopped: runs their tasks down, waking what still sleeps, so that nothing of
    /// the run outlives it (a task left waiting keeps its process's memory).
    private func windDown() {
        for _ in 0..<1_000 {
            while (try? runJob()) == true {}
            server?.runDownRetiredLoops()
            while (try? runJob()) == true {}
            guard let deadline = timers.earliest else { return }
            timers.wake(through: deadline)
        }
    }

    /// Calls into a device's client, as the app would on its own thread, and runs jobs until the call
    /// returns: what it returned or threw.
    ///
    /// - Throws: ``SimulationError`` when the device lost power before the call returned, or the call
    ///   waits on time or the network, which no call into the client should.
    func evaluate<T: Sendable>(
        on executor: SimulationScheduler.ProcessExecutor,
        _ body: @escaping @Sendable () async throws -> T
    ) throws -> Result<T, any Error> {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        Task(executorPreference: executor) {
            let result: Result<T, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
        }
        while true {
            if let result = outcome.withLock({ $0 }) { return result }
            guard !executor.isDead else { throw SimulationError("\(executor.node) lost power") }
            guard try runJob() else {
                throw SimulationError("a call into \(executor.node) waits on time or the network")
            }
        }
    }

    // MARK: Events

    private func handle(_ event: Event) throws {
        switch event {
        case .draw(let index):
            guard clients[index].isUp else {
                // Drawn once the device is back: nothing drawn is skipped.
                schedule(.draw(client: index), after: 500)
                return
            }
            counts.changes += 1
            // A generator of its own: the world's is drawn on while the device sends.
            var stroke = SplitMix64(seed: random.next())
            try clients[index].draw(using: &stroke, in: self)
        case .connected(let id):
            guard let connection = connections[id] else { return }
            record("connected \(id) client \(connection.client)")
            server.open(id, in: self)
            connection.link.open()
        case .toServer(let id, let frame):
            guard connections[id] != nil, server.isUp else { return }
            record("to server \(id): \(frame.count) bytes")
            server.received(frame, on: id)
        case .toClient(let id, let frame):
            guard let connection = connections[id] else { return }
            record("to client \(connection.client) on \(id): \(frame.count) bytes")
            connection.link.deliver(frame)
        case .closed(let id, let code, let reason):
            guard let connection = connections.removeValue(forKey: id) else { return }
            record("closed \(id): \(reason)")
            server.close(id)
            connection.link.finish(code.map { SyncTransportClose(code: $0, reason: reason) })
        case .fault:
            // The last one planned may fall after the network healed: from then on there are none.
            guard !healed else { return }
            try injectFault()
        case .restartServer:
            guard !server.isUp else { return }
            // A disk that still fails is waited for.
            guard server.disk == .healthy else {
                schedule(.restartServer, after: 500)
                return
            }
            record("server restarts")
            try server.start(in: self)
        case .restartClient(let index):
            guard !clients[index].isUp else { return }
            guard clients[index].disk == .healthy else {
                schedule(.restartClient(index), after: 500)
                return
            }
            record("client \(index) restarts")
            try clients[index].start(in: self)
        case .serverDiskRecovers:
            try recoverServerDisk(restartAfter: UInt64.random(in: 100...2_000, using: &random))
        case .clientDiskRecovers(let index):
            record("client \(index)'s disk recovers")
            clients[index].setDisk(.healthy)
        case .heal:
            healed = true
            record("heal")
            partitioned = [:]
            PowerSupply.cancelPlannedCut(server.folder)
            try recoverServerDisk(restartAfter: 0)
            if !server.isUp { try handle(.restartServer) }
            for client in clients {
                PowerSupply.cancelPlannedCut(client.folder)
                client.setDisk(.healthy)
                client.clock.skewMilliseconds = Int64.random(in: -2_000...2_000, using: &random)
                if !client.isUp { try handle(.restartClient(client.index)) }
            }
        }
    }

    /// The server's disk is healthy again: a log that stopped on a storage fault stores nothing until the
    /// process restarts, so the operator restarts it after `restartAfter` ms.
    private func recoverServerDisk(restartAfter delay: UInt64) throws {
        guard server.disk != .healthy || server.hasFailed else { return }
        record("server's disk recovers")
        server.setDisk(.healthy)
        guard server.isUp, server.hasFailed else { return }
        record("server stops for a restart")
        for id in connections.keys.sorted() { closeConnection(id, code: nil, reason: "server stopped", now: true) }
        server.stop(in: self)
        // Its last handles checkpoint as they close: a planned cut may come then, mid-write.
        if PowerSupply.isCut(server.folder) {
            record("server power fails as it stops")
            counts.writesCut += 1
            counts.unsyncedWritesCut += try PowerSupply.restore(server.folder, seed: random.next())
        }
        if delay == 0 { try handle(.restartServer) } else { schedule(.restartServer, after: delay) }
    }

    /// A device opens a connection: refused at once while the server is down or the device is cut off,
    /// else open once the handshake's frames have crossed.
    func openConnection(client index: Int, network: SimulationHandle) throws -> SimulatedLink {
        guard server.isUp, (partitioned[index] ?? 0) <= time.now else {
            record("client \(index) is refused a connection")
            throw SimulationError("connection refused")
        }
        let id = nextConnection
        nextConnection += 1
        let link = SimulatedLink(id: id, network: network)
        connections[id] = Connection(client: index, link: link)
        record("client \(index) connects on \(id)")
        schedule(.connected(connection: id), after: delay())
        return link
    }

    /// One fault, chosen by the seed.
    private func injectFault() throws {
        let open = connections.keys.sorted()
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1:
            // A connection drops.
            guard let id = open.randomElement(using: &random) else { return }
            counts.drops += 1
            closeConnection(id, code: nil, reason: "dropped")
        case 2:
            // A device is cut off for a while.
            let index = Int.random(in: 0..<clients.count, using: &random)
            counts.partitions += 1
            partitioned[index] = time.now + UInt64.random(in: 500...5_000, using: &random)
            record("partition client \(index)")
            for (id, connection) in connections where connection.client == index {
                closeConnection(id, code: nil, reason: "partitioned")
            }
        case 3:
            guard server.isUp else { return }
            if Bool.random(using: &random) {
                try crashServer()
            } else {
                // The power goes while the log writes, a few writes from now.
                record("server power fails mid-write")
                PowerSupply.cut(server.folder, afterOperations: UInt64.random(in: 1...12, using: &random))
            }
        case 4:
            let index = Int.random(in: 0..<clients.count, using: &random)
            guard clients[index].isUp else { return }
            if Bool.random(using: &random) {
                try crashClient(index)
            } else {
                record("client \(index) power fails mid-write")
                PowerSupply.cut(clients[index].folder, afterOperations: UInt64.random(in: 1...12, using: &random))
            }
        case 5:
            // A device's clock jumps.
            let index = Int.random(in: 0..<clients.count, using: &random)
            counts.clockJumps += 1
            clients[index].clock.skewMilliseconds += Int64.random(in: -30_000...30_000, using: &random)
            record("client \(index) clock jumps")
        case 6:
            // The server's disk fills up or fails for a while.
            guard server.disk == .healthy else { return }
            let health: PowerSupply.Disk = Bool.random(using: &random) ? .full : .failing
            counts.diskFaults += 1
            record("server's disk is \(health)")
            server.setDisk(health)
            schedule(.serverDiskRecovers, after: UInt64.random(in: 300...4_000, using: &random))
        case 7:
            // A device's disk fills up or fails for a while.
            let index = Int.random(in: 0..<clients.count, using: &random)
            guard clients[index].disk == .healthy else { return }
            let health: PowerSupply.Disk = Bool.random(using: &random) ? .full : .failing
            counts.diskFaults += 1
            record("client \(index)'s disk is \(health)")
            clients[index].setDisk(health)
            schedule(.clientDiskRecovers(index), after: UInt64.random(in: 300...4_000, using: &random))
        default:
            // Quiet: the network only delays.
            break
        }
    }

    private func crashServer() throws {
        counts.serverCrashes += 1
        record("server crashes")
        for id in connections.keys.sorted() { closeConnection(id, code: nil, reason: "server crashed", now: true) }
        counts.unsyncedWritesCut += try server.crash(seed: random.next(), in: self)
        schedule(.restartServer, after: UInt64.random(in: 100...3_000, using: &random))
    }

    private func crashClient(_ index: Int) throws {
        counts.clientCrashes += 1
        record("client \(index) crashes")
        counts.unsyncedWritesCut += try clients[index].crash(seed: random.next(), in: self)
        for (id, connection) in connections.sorted(by: { $0.key < $1.key }) where connection.client == index {
            closeConnection(id, code: nil, reason: "client crashed", now: true)
        }
        schedule(.restartClient(index), after: UInt64.random(in: 100...3_000, using: &random))
    }

    /// After an error: whether a node's planned power cut came, mid-write, and it crashed for it (running,
    /// or while it started again).
    private func lostPower() throws -> Bool {
        var crashed = false
        if PowerSupply.isCut(server.folder) {
            counts.writesCut += 1
            try crashServer()
            crashed = true
        }
        for client in clients where PowerSupply.isCut(client.folder) {
            counts.writesCut += 1
            try crashClient(client.index)
            crashed = true
        }
        return crashed
    }

    // MARK: The network

    /// Milliseconds a frame takes: mostly a few, now and then a lot.
    private func delay() -> UInt64 {
        Int.random(in: 0..<20, using: &random) == 0
            ? UInt64.random(in: 100...1_500, using: &random) : UInt64.random(in: 1...30, using: &random)
    }

    func sendToServer(_ frame: [UInt8], on id: Int) {
        send(on: id, direction: \.toServer) { .toServer(connection: id, frame: frame) }
    }

    func sendToClient(_ frame: [UInt8], on id: Int) {
        send(on: id, direction: \.toClient) { .toClient(connection: id, frame: frame) }
    }

    /// Schedules a frame's arrival on an open connection, after the last one sent the same way.
    private func send(on id: Int, direction: WritableKeyPath<Connection, UInt64>, _ arrival: () -> Event) {
        guard var connection = connections[id] else { return }
        let at = max(time.now + delay(), connection[keyPath: direction])
        connection[keyPath: direction] = at
        connections[id] = connection
        counts.frames += 1
        events.schedule(arrival(), at: at)
    }

    /// Closes a connection: each end hears of it after what is already on the way (at once when a
    /// process died and the operating system resets the socket).
    func closeConnection(_ id: Int, code: UInt16?, reason: String, now: Bool = false) {
        guard let connection = connections[id] else { return }
        let at = now ? time.now : max(time.now + delay(), connection.toClient, connection.toServer)
        events.schedule(.closed(connection: id, code: code, reason: reason), at: at)
    }

    // MARK: Settling

    /// Every device is connected, has nothing left to send and holds the room's whole log.
    private func isSettled() throws -> Bool {
        guard server.isUp else { return false }
        let head = try server.head(of: Self.room)
        for client in clients where try !client.isSettled(head: head, in: self) { return false }
        return true
    }

    /// Where each device that has not settled stands, for the report.
    private func unsettled() throws -> String {
        let head = server.isUp ? try server.head(of: Self.room) : 0
        var report: [String] = []
        for client in clients where try !client.isSettled(head: head, in: self) {
            report.append("client \(client.index) \(try client.describe(in: self))")
        }
        return report.joined(separator: "; ") + " (the log's head is \(head))"
    }

    /// The board a store holds: its snapshot, if any, and the changes after it.
    static func board(from store: Store) throws -> BoardState {
        let contents = try store.coldOpen(room: room, document: board)
        let snapshot =
            try contents.snapshot.map { try DocumentSnapshot(decoding: $0.bytes) }
            ?? DocumentSnapshot(
                room: room,
                document: board,
                type: BoardEdit.documentType,
                schemaVersion: BoardEdit.schemaVersion,
                cut: Cut(),
                changes: []
            )
        return try snapshot.restore(as: BoardState.self, adding: contents.tail.map(\.payload))
    }
}

/// What a run did, for the report.
public struct SimulationCounts: Hashable, Sendable {
    public var changes = 0
    public var frames = 0
    public var drops = 0
    public var partitions = 0
    public var serverCrashes = 0
    public var clientCrashes = 0
    public var clockJumps = 0
    /// Writes SQLite had not synced when a process lost power: each dropped, kept or torn.
    public var unsyncedWritesCut: UInt64 = 0
    /// Power cuts that came in the middle of a write.
    public var writesCut = 0
    /// Disks that filled up or failed for a while.
    public var diskFaults = 0
    /// Pushes the server answered `storageFailed`, its log unable to store them.
    public var storageRefusals = 0
    /// Strokes a device could not store, and so never made.
    public var unsavedEdits = 0
    /// Pushes refused because the room reached its quota.
    public var roomFullRefusals = 0
    /// Snapshots the server sent devices in place of packs it had dropped.
    public var rebases = 0
}

/// A seeded source of randomness a store may call from any thread.
final class SeededSource: Sendable {
    private let state: Mutex<SplitMix64>

    init(seed: UInt64) {
        state = Mutex(SplitMix64(seed: seed))
    }

    func next() -> UInt64 {
        state.withLock { $0.next() }
    }
}
