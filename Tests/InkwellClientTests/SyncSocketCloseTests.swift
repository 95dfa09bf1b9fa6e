import Hummingbird
import HummingbirdWebSocket
import InkwellClient
import Logging
import NIOCore
import Testing

/// A socket whose server never answers its close still ends, within the close timeout and the
/// WebSocket layer's own wait after it.
@Suite struct SyncSocketCloseTests {
    @Test func aServerThatNeverAnswersOurCloseIsDroppedInTime() async throws {
        var logger = Logger(label: "test.silent-server")
        logger.logLevel = .critical
        let (ports, reported) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: Router(),
            server: .http1WebSocketUpgrade { _, _, _ in
                // Upgrades, then never reads: the client's close is never answered.
                .upgrade([:]) { _, _, _ in try await Task.sleep(for: .seconds(60)) }
            },
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                reported.yield(channel.localAddress?.port ?? 0)
                reported.finish()
            },
            logger: logger
        )
        let server = Task { try await application.runService() }
        defer { server.cancel() }
        let port = try #require(await ports.first { _ in true })
        let socket = try await SyncSocket.connect(url: "ws://127.0.0.1:\(port)/", logger: logger)
        let started = ContinuousClock.now
        await socket.close()
        // Before the close timeout, this waited until the server's handler gave up after a minute.
        _ = await socket.closure
        let waited = ContinuousClock.now - started
        #expect(waited < SyncSocket.closeTimeout * 3, "closing took \(waited)")
    }
}
