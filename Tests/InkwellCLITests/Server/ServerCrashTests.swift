import Foundation
import InkwellBoardTesting
import InkwellClient
import InkwellServer
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import Testing

/// The real server, restarted and killed under load: an acknowledged pack is never lost.
@Suite(.serialized) struct ServerCrashTests {
    /// Kills per run; INKWELL_SERVER_KILLS asks for a longer run.
    static let kills = ProcessInfo.processInfo.environment["INKWELL_SERVER_KILLS"].flatMap(Int.init) ?? 20

    @Test func noAcknowledgedPackIsLostToSIGKILLOrRestart() async throws {
        let seed = SeededGenerator.seedFromEnvironment()
        print("ServerCrashTests seed \(seed) (INKWELL_SEED), \(Self.kills) kills (INKWELL_SERVER_KILLS)")
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryDirectory("kills")
        var acknowledged: [PackID: (room: String, position: UInt64)] = [:]
        var port = 0
        var pushed = 0
        for round in 0...Self.kills {
            let server = try await ServerProcess.start(data: folder.url, port: port, logLevel: "error")
            port = server.port
            // The last round ends gracefully: SIGTERM must commit what is pending too.
            pushed += try await Self.pushUntilStopped(server, using: &random, into: &acknowledged) {
                if round == Self.kills { #expect(await server.stop() == 0) } else { await server.kill() }
            }
            try PowerCut.requireNoCrash(server)
        }
        let log = try await PackLogAudit(data: folder.url)
        var stored: [String: [UInt64: PackID]] = [:]
        for pack in log.packs {
            stored[pack.room, default: [:]][pack.position] = try PackCodec.header(of: pack.bytes).id
        }
        for (pack, place) in acknowledged {
            #expect(stored[place.room]?[place.position] == pack, "acknowledged pack \(pack) at \(place) is missing")
        }
        print(
            "ServerCrashTests: \(pushed) pushes, \(acknowledged.count) acknowledged, all present after \(Self.kills) kills"
        )
        #expect(acknowledged.count > Self.kills)
    }

    /// Four connections push without waiting for acks, and `stop` ends the server while they do; the acks
    /// that came are added to `acknowledged`, each at its place (a pack acknowledged twice must not move).
    /// Returns how many pushes were sent.
    static func pushUntilStopped(
        _ server: ServerProcess,
        using random: inout SeededGenerator,
        into acknowledged: inout [PackID: (room: String, position: UInt64)],
        stop: () async -> Void
    ) async throws -> Int {
        var pushers: [Task<(acknowledged: [PackID: (room: String, position: UInt64)], pushed: Int), any Error>] = []
        for _ in 0..<4 {
            let socket = try await connect(to: server.syncURL.absoluteString)
            let seed = random.next()
            pushers.append(Task { try await push(on: socket, seed: seed) })
        }
        try await Task.sleep(for: .milliseconds(Int64.random(in: 150...500, using: &random)))
        await stop()
        var pushed = 0
        for pusher in pushers {
            let result = try await pusher.value
            pushed += result.pushed
            for (pack, place) in result.acknowledged {
                if let earlier = acknowledged[pack] { #expect(earlier == place, "pack \(pack) moved") }
                acknowledged[pack] = place
            }
        }
        return pushed
    }

    /// Opens a socket and says hello.
    private static func connect(to url: String) async throws -> SyncSocket {
        try await SyncSocket.greeted(url: url, agent: "crash-test")
    }

    /// Pushes small packs to three rooms, without waiting for acks, until the connection ends; returns the
    /// acks that arrived before it did.
    private static func push(
        on socket: SyncSocket,
        seed: UInt64
    ) async throws -> (
        acknowledged: [PackID: (room: String, position: UInt64)], pushed: Int
    ) {
        let collector = Task {
            var acknowledged: [PackID: (room: String, position: UInt64)] = [:]
            do {
                for try await message in socket.messages {
                    if case .ack(let room, let pack, let position) = message { acknowledged[pack] = (room, position) }
                }
            } catch {}
            return acknowledged
        }
        var generator = SeededGenerator(seed: seed)
        let key = AuthorKey(using: &generator)
        var pushed = 0
        while true {
            let room = "room-\(pushed % 3)"
            // A stroke of 4 to 500 points by this connection's own key: a pack the server takes.
            let change = TestStrokes.change(
                replica: key.replica,
                seq: UInt64(pushed + 1),
                points: Int.random(in: 4...500, using: &generator),
                using: &generator
            )
            let pack = PackCodec.encode(Pack(room: room, changes: [change]), signedBy: key)
            do {
                try await socket.send(.push(room: room, pack: pack))
            } catch {
                break
            }
            pushed += 1
            // About 150 pushes a second per connection: under the server's limit of 200.
            try await Task.sleep(for: .milliseconds(6))
        }
        return (await collector.value, pushed)
    }
}
