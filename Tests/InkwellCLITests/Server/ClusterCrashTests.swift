import Foundation
import InkwellClient
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import Synchronization
import Testing

/// Three `inkwell serve --postgres` nodes on one database, one of them killed with SIGKILL under load
/// again and again and started again: no acknowledged pack is lost or moved, and a member that follows
/// the rooms from a node that stays up, and members that join on every node at the end, all hold the same
/// packs at the same positions.
@Suite(.serialized) struct ClusterCrashTests {
    /// Kills per run; INKWELL_CLUSTER_KILLS asks for a longer run.
    static let kills = ProcessInfo.processInfo.environment["INKWELL_CLUSTER_KILLS"].flatMap(Int.init) ?? 20
    static let rooms = ["room-0", "room-1", "room-2"]

    @Test func noAcknowledgedPackIsLostWhenANodeOfThreeIsKilled() async throws {
        if let reason = PostgresCluster.unavailable {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("\(reason)") }
            print("ClusterCrashTests skipped: \(reason)")
            return
        }
        let seed = SeededGenerator.seedFromEnvironment()
        print("ClusterCrashTests seed \(seed) (INKWELL_SEED), \(Self.kills) kills (INKWELL_CLUSTER_KILLS)")
        var random = SeededGenerator(seed: seed)
        let url = try await SharedPostgres.cluster().makeDatabase()
        let folders = try (0..<3).map { try TemporaryDirectory("node-\($0)") }
        var nodes: [ServerProcess] = []
        for folder in folders { nodes.append(try await Self.start(folder, url: url, port: 0)) }
        // A member on the node that is never killed follows every room from the start.
        let follower = try await Follower.start(url: nodes[0].syncURL.absoluteString, rooms: Self.rooms)
        var acknowledged: [PackID: (room: String, position: UInt64)] = [:]
        var pushed = 0
        for round in 1...Self.kills {
            let victim = Int.random(in: 1...2, using: &random)
            pushed += try await ServerCrashTests.pushUntilStopped(
                nodes[victim],
                using: &random,
                into: &acknowledged
            ) {
                await nodes[victim].kill()
            }
            try PowerCut.requireNoCrash(nodes[victim])
            nodes[victim] = try await Self.start(folders[victim], url: url, port: nodes[victim].port)
            if round % 5 == 0 { print("ClusterCrashTests: \(round) kills, \(acknowledged.count) acknowledged") }
        }
        // Every push was answered or its connection killed: the log holds all there will be.
        let audit = try await PackLogAudit(data: Self.auditFolder(url: url))
        for (pack, place) in acknowledged {
            #expect(
                audit.served(room: place.room)[place.position] == pack,
                "acknowledged \(pack) at \(place) is missing"
            )
        }
        var stored: [String: [UInt64: [UInt8]]] = [:]
        for pack in audit.packs { stored[pack.room, default: [:]][pack.position] = pack.bytes }
        for room in Self.rooms {
            let positions = (stored[room] ?? [:]).keys.sorted()
            #expect(positions == Array(1...UInt64(positions.count)), "\(room) has a gap: \(positions.count) packs")
        }
        // The follower was sent every pack, at its position, live across the kills.
        #expect(await follower.waitFor(stored, within: .seconds(20)), "seed \(seed): the follower holds another log")
        follower.stop()
        // Members joining now on each node catch up to the same log.
        for node in nodes {
            let member = try await Follower.start(url: node.syncURL.absoluteString, rooms: Self.rooms)
            #expect(await member.waitFor(stored, within: .seconds(20)), "seed \(seed): a joining member differs")
            member.stop()
            #expect(await node.stop() == 0)
        }
        print(
            "ClusterCrashTests: \(pushed) pushes, \(acknowledged.count) acknowledged, all present after "
                + "\(Self.kills) kills of one node of three; \(audit.packs.count) packs, every member the same"
        )
        #expect(acknowledged.count > Self.kills)
    }

    /// A node on `url`, its data (the blobs' bytes) in `folder`.
    static func start(_ folder: TemporaryDirectory, url: String, port: Int) async throws -> ServerProcess {
        try await ServerProcess.start(data: folder.url, port: port, logLevel: "error", arguments: ["--postgres", url])
    }

    /// A folder whose audit reads the database at `url`.
    static func auditFolder(url: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-audit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try url.write(to: folder.appendingPathComponent(".test-postgres-url"), atomically: true, encoding: .utf8)
        return folder
    }
}

/// A member that subscribes to rooms from their start and keeps every pack it is sent, checking that
/// each room's packs come in order without a gap.
final class Follower: Sendable {
    private let socket: SyncSocket
    private let held = Mutex<[String: [UInt64: [UInt8]]]>([:])
    private let problems = Mutex<[String]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// How its connection ended, if it has.
    private let ended = Mutex<String?>(nil)

    private init(socket: SyncSocket) {
        self.socket = socket
    }

    static func start(url: String, rooms: [String]) async throws -> Follower {
        let socket = try await SyncSocket.greeted(url: url, agent: "cluster-follower")
        let follower = Follower(socket: socket)
        follower.task.withLock { task in
            task = Task {
                do {
                    for try await message in socket.messages {
                        if case .error(let code, let text, _, _) = message {
                            follower.ended.withLock { $0 = "error \(code): \(text)" }
                        }
                        guard case .packs(let room, let packs, _) = message else { continue }
                        follower.keep(packs, of: room)
                    }
                    follower.ended.withLock { $0 = ($0 ?? "") + " (closed)" }
                } catch {
                    follower.ended.withLock { $0 = ($0 ?? "") + " (\(error))" }
                }
            }
        }
        for room in rooms { try await socket.send(.subscribe(room: room, after: 0, capability: "")) }
        return follower
    }

    private func keep(_ packs: [StoredPack], of room: String) {
        held.withLock { held in
            for pack in packs {
                let last = held[room]?.keys.max() ?? 0
                if pack.serverSeq > last + 1 {
                    problems.withLock { $0.append("\(room): sent \(pack.serverSeq) after \(last)") }
                }
                held[room, default: [:]][pack.serverSeq] = pack.bytes
            }
        }
    }

    /// Waits until this member holds exactly `log`, and was sent nothing out of order.
    func waitFor(_ log: [String: [UInt64: [UInt8]]], within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if held.withLock({ $0 == log }) { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let problems = problems.withLock { $0 }
        if !problems.isEmpty { Issue.record("sent out of order: \(problems.prefix(5))") }
        let same = held.withLock { $0 == log }
        if !same {
            let counts = held.withLock { held in
                log.keys.sorted().map { "\($0): \(held[$0]?.count ?? 0) of \(log[$0]!.count)" }
            }
            Issue.record("the member holds \(counts), ended: \(ended.withLock { $0 })")
        }
        return problems.isEmpty && same
    }

    func stop() {
        task.withLock { $0?.cancel() }
        Task { [socket] in await socket.close() }
    }
}
