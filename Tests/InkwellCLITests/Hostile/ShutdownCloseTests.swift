import Foundation
import InkwellSync
import InkwellTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a real server process ends its connections on SIGTERM.
@Suite struct ShutdownCloseTests {
    static let clients = 4

    /// Every client connected when SIGTERM arrives gets close 1001, going away (not the WebSocket
    /// layer's 1000), and the server then exits cleanly.
    @Test func sigtermClosesEveryConnectedClientWith1001() async throws {
        let seed = SeededGenerator.seedFromEnvironment()
        print("shutdown close: seed \(seed) (INKWELL_SEED=\(seed) replays)")
        let scratch = try TemporaryDirectory("shutdown-close")
        // At debug, so that a client ended otherwise than with 1001 shows what the server did with it.
        let server = try await ServerProcess.start(
            data: scratch.url.appendingPathComponent("server"),
            logLevel: "debug"
        )
        let endings = try await Self.onThread {
            var random = SeededGenerator(seed: seed)
            let sockets = try (0..<Self.clients).map { _ in
                let socket = try RawWebSocket(port: server.port, random: SeededGenerator(seed: random.next()))
                try socket.hello(device: ReplicaID(using: &random))
                return socket
            }
            defer { for socket in sockets { socket.socket.close() } }
            server.child.signal(SIGTERM)
            let signalled = ContinuousClock.now
            // Each answers the close as an honest client does, one after another on this thread.
            return sockets.map { $0.awaitEnding(since: signalled, limit: .seconds(10), answeringClose: true) }
        }
        for (index, ending) in endings.enumerated() {
            print("client \(index): \(ending)")
            #expect(ending.closeCode == 1001, "client \(index): \(ending)")
            #expect(ending.closeReason == "server shutting down", "client \(index): \(ending)")
            #expect(ending.closedAfter != nil, "client \(index): \(ending)")
        }
        let status = await server.child.waitForExit(timeout: .seconds(20))
        #expect(status == 0, "the server exited with \(status): \(server.child.standardError.suffix(2_000))")
        if endings.contains(where: { $0.closeCode != 1001 }) {
            print("the server's log:\n\(server.child.standardError.suffix(20_000))")
        }
    }

    /// Runs blocking socket work on a thread of its own, off Swift's cooperative pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
