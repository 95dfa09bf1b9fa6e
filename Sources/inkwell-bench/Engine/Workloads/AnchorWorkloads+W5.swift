import Foundation
import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellWire
import Logging

extension AnchorWorkloads {
    /// W5: a new client's initial sync of a corpus of 1,000,000 changes over 10,000 boards (100 rooms of
    /// 100 boards; each board's 100 strokes pushed as one pack by its own author) from a real `inkwell
    /// serve` on loopback. Timed three ways: the socket alone (frames read, packs kept as bytes), the
    /// socket with every change decoded, and `SyncClient` storing everything in a new SQLite store.
    /// The floor: the corpus's bytes sent raw over a loopback TCP socket.
    func w5() async -> [Figure] {
        do {
            return try await measureW5()
        } catch {
            FileHandle.standardError.write(Data("W5 failed: \(error)\n".utf8))
            return [Figure(workload: "W5", figure: "failed", value: 1)]
        }
    }

    private func measureW5() async throws -> [Figure] {
        let corpus = W5Corpus(boards: size(10_000), changes: size(1_000_000))
        let server = try BenchServer()
        defer { server.stop() }
        let seeding = try await ContinuousClock().measure { try await corpus.push(to: server.url) }

        var socketSeconds = Double.infinity
        var decodeSeconds = Double.infinity
        var wireBytes = 0
        var serverCPU = 0.0
        var clientCPU = 0.0
        for _ in 0..<runs {
            let serverBefore = ProcessUsage.cpuSeconds(of: server.process.processIdentifier) ?? 0
            let clientBefore = ProcessUsage.ownCPUSeconds()
            let plain = try await corpus.download(from: server.url, decoding: false)
            if plain.seconds < socketSeconds {
                socketSeconds = plain.seconds
                serverCPU = (ProcessUsage.cpuSeconds(of: server.process.processIdentifier) ?? 0) - serverBefore
                clientCPU = ProcessUsage.ownCPUSeconds() - clientBefore
            }
            wireBytes = plain.bytes
            let decoded = try await corpus.download(from: server.url, decoding: true)
            decodeSeconds = min(decodeSeconds, decoded.seconds)
        }
        let clientSeconds = try await corpus.syncClient(from: server.url)
        var rawSeconds = Double.infinity
        for _ in 0..<runs { rawSeconds = min(rawSeconds, try RawLoopback.seconds(sending: corpus.bytes)) }

        let megabytes = Double(corpus.bytes) / 1e6
        return [
            Figure(workload: "W5", figure: "boards", value: Double(corpus.boards)),
            Figure(workload: "W5", figure: "rooms", value: Double(corpus.rooms)),
            Figure(workload: "W5", figure: "changes", value: Double(corpus.changeCount)),
            Figure(workload: "W5", figure: "corpus_mb", value: megabytes),
            Figure(workload: "W5", figure: "wire_mb", value: Double(wireBytes) / 1e6),
            Figure(workload: "W5", figure: "seed_s", value: seeding.seconds),
            Figure(workload: "W5", figure: "sync_s", value: socketSeconds),
            Figure(workload: "W5", figure: "sync_MB_per_s", value: megabytes / socketSeconds),
            // CPU seconds each side used during that sync (clock ticks of 10 ms): who is the bottleneck.
            Figure(workload: "W5", figure: "sync_server_cpu_s", value: serverCPU),
            Figure(workload: "W5", figure: "sync_client_cpu_s", value: clientCPU),
            Figure(workload: "W5", figure: "sync_decode_s", value: decodeSeconds),
            Figure(workload: "W5", figure: "sync_decode_MB_per_s", value: megabytes / decodeSeconds),
            Figure(workload: "W5", figure: "client_store_s", value: clientSeconds),
            Figure(workload: "W5", figure: "client_store_MB_per_s", value: megabytes / clientSeconds),
            Figure(workload: "W5", figure: "raw_loopback_s", value: rawSeconds),
            Figure(workload: "W5", figure: "raw_loopback_MB_per_s", value: megabytes / rawSeconds),
            Figure(workload: "W5", figure: "sync_percent_of_raw", value: rawSeconds / socketSeconds * 100),
        ]
    }
}

/// The W5 corpus: for each board, 100 strokes (anchor-style random walks on the ink grid) by one author,
/// encoded as that author's changes 1…100 and packed, as a device pushes its outbox.
struct W5Corpus {
    static let boardsPerRoom = 100
    /// Points per stroke: about 100 bytes per encoded change.
    static let pointsPerStroke = 17

    let boards: Int
    let rooms: Int
    let changeCount: Int
    /// Encoded changes, summed: the corpus size.
    let bytes: Int
    /// Per board: its room and its pack.
    let packs: [(room: String, pack: [UInt8])]

    init(boards: Int, changes: Int) {
        self.boards = boards
        rooms = max(1, (boards + Self.boardsPerRoom - 1) / Self.boardsPerRoom)
        let perBoard = max(1, changes / boards)
        changeCount = perBoard * boards
        var random = SplitMix64(seed: 15)
        var generator = PythonRandom(seed: 6)
        var total = 0
        let now = SystemWallClock().millisecondsSince1970()
        var packs: [(room: String, pack: [UInt8])] = []
        packs.reserveCapacity(boards)
        for index in 0..<boards {
            let room = "w5-room-\(index / Self.boardsPerRoom)"
            let key = AuthorKey(using: &random)
            let replica = key.replica
            var clock = HybridLogicalClock()
            var entries: [[UInt8]] = []
            for seq in 1...perBoard {
                let colour = generator.choice(AnchorStroke.palette)
                let width = generator.choice(AnchorStroke.widths)
                let points = AnchorStroke.walk(&generator, count: Self.pointsPerStroke).map(InkGrid.snap)
                let change = BoardChange(
                    id: ChangeID(replica: replica, seq: UInt64(seq)),
                    stamp: clock.next(wallMilliseconds: now),
                    payload: BoardEdit(
                        board: BoardID("board-\(index)"),
                        operations: [
                            .addStroke(
                                StrokeStyle(colour: Colour(rgba: colour), width: width),
                                points: points,
                                pressures: nil
                            )
                        ]
                    )
                )
                let encoded = ChangeCodec.encode(change)
                total += encoded.count
                entries.append(encoded)
            }
            packs.append((room, PackCodec.encode(Pack(room: room, changes: entries), signedBy: key)))
        }
        self.packs = packs
        bytes = total
    }

    var roomNames: [String] { (0..<rooms).map { "w5-room-\($0)" } }

    /// Quiet: standard output carries the figures.
    static var logger: Logger {
        var logger = Logger(label: "inkwell.bench")
        logger.logLevel = .critical
        return logger
    }

    /// Pushes every pack through 8 connections, each kept under the server's 200 pushes a second.
    func push(to url: String) async throws {
        let connections = 8
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<connections {
                let mine = stride(from: lane, to: packs.count, by: connections).map { packs[$0] }
                group.addTask { try await Self.push(mine, to: url) }
            }
            try await group.waitForAll()
        }
    }

    /// A socket to the server that has said hello, as a device made from `seed`.
    private static func connect(to url: String, seed: UInt64) async throws -> SyncSocket {
        let socket = try await SyncSocket.connect(url: url, logger: logger)
        var random = SplitMix64(seed: seed)
        try await socket.send(
            .hello(
                protocolVersion: SyncProtocol.version,
                minimumProtocolVersion: SyncProtocol.minimumVersion,
                device: ReplicaID(using: &random),
                agent: "inkwell-bench/1"
            )
        )
        return socket
    }

    private static func push(_ packs: [(room: String, pack: [UInt8])], to url: String) async throws {
        let socket = try await Self.connect(to: url, seed: UInt64(packs.count))
        var messages = socket.messages.makeAsyncIterator()
        let window = 50
        var start = 0
        while start < packs.count {
            let began = ContinuousClock.now
            let batch = packs[start..<min(start + window, packs.count)]
            for (room, pack) in batch { try await socket.send(.push(room: room, pack: pack)) }
            var acknowledged = 0
            while acknowledged < batch.count {
                switch try await messages.next() {
                case .ack?: acknowledged += 1
                case .error(let code, let message, _, _)?: throw BenchError("push refused: \(code) \(message)")
                case nil: throw BenchError("server closed the connection while seeding")
                default: break
                }
            }
            // 50 pushes per 0.3 s: under the server's sustained 200 a second.
            let elapsed = ContinuousClock.now - began
            if elapsed < .milliseconds(300) { try await Task.sleep(for: .milliseconds(300) - elapsed) }
            start += window
        }
        await socket.close()
    }

    /// A new device subscribes to every room and reads until each has reached its head.
    ///
    /// - Returns: the time from connecting to the last pack read, and the pack bytes received.
    func download(from url: String, decoding: Bool) async throws -> (seconds: Double, bytes: Int) {
        let start = ContinuousClock.now
        let socket = try await Self.connect(to: url, seed: decoding ? 1 : 2)
        for room in roomNames { try await socket.send(.subscribe(room: room, after: 0, capability: "")) }
        var waiting = Set(roomNames)
        var heads: [String: UInt64] = [:]
        var reached: [String: UInt64] = [:]
        var bytes = 0
        var decoded = 0
        var messages = socket.messages.makeAsyncIterator()
        while !waiting.isEmpty {
            switch try await messages.next() {
            case .progress(let room, let head, _, _)?:
                heads[room] = head
            case .packs(let room, let stored, let head)?:
                heads[room] = head
                for pack in stored {
                    bytes += pack.bytes.count
                    if decoding {
                        for change in try PackCodec.decode(pack.bytes, room: room).changes {
                            blackHole(try ChangeCodec.decode(change, as: BoardEdit.self))
                            decoded += 1
                        }
                    }
                }
                reached[room] = stored.last?.serverSeq ?? reached[room]
            case .error(let code, let message, _, _)?:
                throw BenchError("sync refused: \(code) \(message)")
            case nil:
                throw BenchError("server closed the connection during the sync")
            default:
                break
            }
            for room in waiting where heads[room] != nil && (reached[room] ?? 0) >= heads[room]! && heads[room]! > 0 {
                waiting.remove(room)
            }
        }
        let seconds = (ContinuousClock.now - start).seconds
        await socket.close()
        guard !decoding || decoded == changeCount else {
            throw BenchError("decoded \(decoded) of \(changeCount) changes")
        }
        return (seconds, bytes)
    }

    /// `SyncClient` with a new on-disk store follows every room until it reports synced.
    func syncClient(from url: String) async throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-bench-client-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store(path: folder.appendingPathComponent("client.sqlite").path)
        let start = ContinuousClock.now
        let client = try SyncClient(store: store, url: URL(string: url)!, rooms: Set(roomNames), logger: Self.logger)
        let seconds = try await withThrowingTaskGroup(of: Double?.self) { group in
            group.addTask {
                try await client.run()
                return nil
            }
            group.addTask {
                try await client.waitUntilSynced(timeout: .seconds(600))
                let seconds = (ContinuousClock.now - start).seconds
                await client.stop()
                return seconds
            }
            var result = 0.0
            for try await value in group { if let value { result = value } }
            return result
        }
        let stored = try roomNames.reduce(0) { $0 + Int(try store.frontier(room: $1).vector.changeCount) }
        guard stored == changeCount else { throw BenchError("the client stored \(stored) of \(changeCount) changes") }
        return seconds
    }
}
