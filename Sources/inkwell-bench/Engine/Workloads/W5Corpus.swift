import Foundation
import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellWire
import Logging

/// W5's corpus in its two forms: plain, and sealed with a key per room (end-to-end encryption). Both
/// hold the same changes, packed and signed alike, in rooms of the same name length; the server stores
/// and serves both kinds as bytes.
enum W5Variant: CaseIterable {
    case plain
    case sealed
}

/// The W5 corpus: for each board, 100 strokes (anchor-style random walks on the ink grid) by one author,
/// encoded as that author's changes 1…100 and packed, as a device pushes its outbox; once plain (rooms
/// `w5-room-N`) and once with each pack's body sealed with its room's ``RoomKey`` (rooms `w5-seal-N`),
/// as an encrypted room's members seal theirs: `PackCodec.encode(_:signedBy:sealedWith:)`, a fresh
/// random nonce per pack.
struct W5Corpus {
    static let boardsPerRoom = 100
    /// Points per stroke: about 100 bytes per encoded change.
    static let pointsPerStroke = 17

    let boards: Int
    let rooms: Int
    let changesPerBoard: Int
    /// Changes in each form of the corpus.
    let changeCount: Int
    /// Encoded changes, summed: the corpus size (of each form).
    let bytes: Int
    /// Per board: its plain room and its pack.
    let packs: [(room: String, pack: [UInt8])]
    /// Per board: its sealed room and its pack, sealed with that room's key.
    let sealedPacks: [(room: String, pack: [UInt8])]
    /// The key of each sealed room, as a member's device holds it (from the link's fragment).
    let keys: [String: RoomKey]

    init(boards: Int, changes: Int) {
        self.boards = boards
        rooms = max(1, (boards + Self.boardsPerRoom - 1) / Self.boardsPerRoom)
        let perBoard = max(1, changes / boards)
        changesPerBoard = perBoard
        changeCount = perBoard * boards
        var random = SplitMix64(seed: 15)
        var generator = PythonRandom(seed: 6)
        // The keys from a generator of their own, so the plain corpus is the one measured before sealing.
        var keyRandom = SplitMix64(seed: 16)
        var keys: [String: RoomKey] = [:]
        for room in 0..<rooms { keys[Self.roomName(room, .sealed)] = RoomKey.generate(using: &keyRandom) }
        var total = 0
        let now = SystemWallClock().millisecondsSince1970()
        var packs: [(room: String, pack: [UInt8])] = []
        var sealedPacks: [(room: String, pack: [UInt8])] = []
        packs.reserveCapacity(boards)
        sealedPacks.reserveCapacity(boards)
        for index in 0..<boards {
            let room = Self.roomName(index / Self.boardsPerRoom, .plain)
            let sealedRoom = Self.roomName(index / Self.boardsPerRoom, .sealed)
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
            sealedPacks.append(
                (
                    sealedRoom,
                    PackCodec.encode(
                        Pack(room: sealedRoom, changes: entries),
                        signedBy: key,
                        sealedWith: keys[sealedRoom]!
                    )
                )
            )
        }
        self.packs = packs
        self.sealedPacks = sealedPacks
        self.keys = keys
        bytes = total
    }

    /// Plain and sealed rooms' names have the same length, so the frames and envelopes that name them
    /// differ only by what sealing adds.
    static func roomName(_ index: Int, _ variant: W5Variant) -> String {
        switch variant {
        case .plain: "w5-room-\(index)"
        case .sealed: "w5-seal-\(index)"
        }
    }

    func roomNames(_ variant: W5Variant) -> [String] { (0..<rooms).map { Self.roomName($0, variant) } }

    func packs(_ variant: W5Variant) -> [(room: String, pack: [UInt8])] {
        switch variant {
        case .plain: packs
        case .sealed: sealedPacks
        }
    }

    /// The keys a member of the variant's rooms holds: none for plain rooms.
    func keys(_ variant: W5Variant) -> [String: RoomKey] {
        switch variant {
        case .plain: [:]
        case .sealed: keys
        }
    }

    /// The changes the packs of `rooms` hold.
    func changeCount(in rooms: [String]) -> Int {
        let rooms = Set(rooms)
        return (packs + sealedPacks).filter { rooms.contains($0.room) }.count * changesPerBoard
    }

    /// Quiet: standard output carries the figures. `INKWELL_BENCH_LOG=info` (or another level) lets the
    /// clients' log through, to standard error.
    static var logger: Logger {
        var logger = Logger(label: "inkwell.bench") { StreamLogHandler.standardError(label: $0) }
        let level = ProcessInfo.processInfo.environment["INKWELL_BENCH_LOG"].flatMap(Logger.Level.init(rawValue:))
        logger.logLevel = level ?? .critical
        return logger
    }

    /// Pushes every pack of `variant` through 8 connections.
    func push(_ variant: W5Variant, to url: String) async throws {
        try await Self.push(packs(variant), to: url, connections: 8)
    }

    /// Pushes `packs` through `connections` connections, each kept under the server's 200 pushes a
    /// second.
    static func push(_ packs: [(room: String, pack: [UInt8])], to url: String, connections: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<connections {
                let mine = stride(from: lane, to: packs.count, by: connections).map { packs[$0] }
                group.addTask { try await Self.push(mine, to: url) }
            }
            try await group.waitForAll()
        }
    }

    /// A socket to the server that has said hello, as a device made from `seed`.
    static func connect(to url: String, seed: UInt64) async throws -> SyncSocket {
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

    static func push(_ packs: [(room: String, pack: [UInt8])], to url: String) async throws {
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

    /// What a new device read: the time from connecting to the last pack read, the pack bytes
    /// received, and, when it opened them, the changes decoded and the packs that did not open.
    struct Download {
        var seconds: Double
        var bytes: Int
        var packs: Int
        var decoded: Int
        var refused: Int
    }

    /// A new device subscribes to every room of `rooms` and reads until each has reached its head; with
    /// `keys`, it decodes every pack (verified, opened with its room's key when it has one, inflated) and
    /// every change in it, counting the packs that do not decode instead of stopping.
    func download(from url: String, rooms: [String], decodingWith keys: [String: RoomKey]?) async throws -> Download {
        let start = ContinuousClock.now
        let socket = try await Self.connect(to: url, seed: keys == nil ? 2 : 1)
        for room in rooms { try await socket.send(.subscribe(room: room, after: 0, capability: "")) }
        var waiting = Set(rooms)
        var heads: [String: UInt64] = [:]
        var reached: [String: UInt64] = [:]
        var result = Download(seconds: 0, bytes: 0, packs: 0, decoded: 0, refused: 0)
        var messages = socket.messages.makeAsyncIterator()
        while !waiting.isEmpty {
            switch try await messages.next() {
            case .progress(let room, let head, _, _)?:
                heads[room] = head
            case .packs(let room, let stored, let head)?:
                heads[room] = head
                let key = keys?[room]
                for pack in stored {
                    result.bytes += pack.bytes.count
                    result.packs += 1
                    guard keys != nil else { continue }
                    do {
                        for change in try PackCodec.decode(pack.bytes, room: room, key: key).changes {
                            blackHole(try ChangeCodec.decode(change, as: BoardEdit.self))
                            result.decoded += 1
                        }
                    } catch {
                        result.refused += 1
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
        result.seconds = (ContinuousClock.now - start).seconds
        await socket.close()
        return result
    }

    /// `SyncClient` with a new on-disk store follows every room of `rooms` until it reports synced,
    /// holding for each room of `keys` that room's key in its credentials (as a device that opened the
    /// room's edit link does: the bench server's open rooms take any capability). Timed from `run()`:
    /// the client is made and given its credentials before.
    ///
    /// - Returns: the time, and the changes the store holds afterwards.
    func syncClient(
        from url: String,
        rooms: [String],
        keys: [String: RoomKey]
    ) async throws -> (
        seconds: Double, stored: Int
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-bench-client-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store(path: folder.appendingPathComponent("client.sqlite").path)
        let client = try SyncClient(store: store, url: URL(string: url)!, rooms: Set(rooms), logger: Self.logger)
        for room in rooms {
            guard let key = keys[room] else { continue }
            try await client.setCredentials(RoomCredentials.from(link: Capability.mint(.edit), key: key), for: room)
        }
        let seconds = try await Self.secondsToSync(client, timeout: .seconds(600))
        let stored = try rooms.reduce(0) { $0 + Int(try store.frontier(room: $1).vector.changeCount) }
        return (seconds, stored)
    }

    /// Runs `client` until it reports synced, then stops it: the seconds from `run()` to synced.
    static func secondsToSync(_ client: SyncClient, timeout: Duration) async throws -> Double {
        let start = ContinuousClock.now
        return try await withThrowingTaskGroup(of: Double?.self) { group in
            group.addTask {
                try await client.run()
                return nil
            }
            group.addTask {
                try await client.waitUntilSynced(timeout: timeout)
                let seconds = (ContinuousClock.now - start).seconds
                await client.stop()
                return seconds
            }
            var result = 0.0
            for try await value in group { if let value { result = value } }
            return result
        }
    }
}
