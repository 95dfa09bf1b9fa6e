import Foundation
import InkwellClient
import InkwellServer
import InkwellSync
import InkwellWire
import Testing

/// One address cannot hold the server's sockets: past its limit, handshakes are refused with 429, and a
/// closed connection frees its slot.
@Suite struct ConnectionLimitTests {
    @Test func connectionsPerAddressAreBoundedAndFreedOnClose() async throws {
        var limits = ServerLimits()
        limits.maximumConnectionsPerAddress = 3
        let server = try await RunningServer.start(limits: limits)
        let peers = try await (0..<3).asyncMap { _ in try await server.peer() }
        await #expect(throws: (any Error).self, "the fourth connection from one address") {
            _ = try await server.peer()
        }
        #expect(try await Self.handshake(server) == 429)
        await peers[0].socket.close()
        #expect(try await Self.reconnects(to: server), "a closed connection gives its slot back")
        await server.stop()
    }

    /// The server's own cap (``ServerLimits/maximumConnections``, 20,000 by default) over all addresses:
    /// past it, handshakes are refused with 503 before any WebSocket opens, and a closed connection frees
    /// its place.
    @Test func connectionsAreBoundedServerWideAndFreedOnClose() async throws {
        var limits = ServerLimits()
        limits.maximumConnections = 2
        let server = try await RunningServer.start(limits: limits)
        let peers = try await (0..<2).asyncMap { _ in try await server.peer() }
        await #expect(throws: (any Error).self, "a third connection") { _ = try await server.peer() }
        #expect(try await Self.handshake(server) == 503)
        // Plain HTTP is not a WebSocket: the server still answers it.
        let health = try await RawHTTP.exchange(
            port: server.port,
            head: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        )
        #expect(health.status == 200)
        await peers[1].socket.close()
        #expect(try await Self.reconnects(to: server), "a closed connection gives its place back")
        await server.stop()
    }

    /// Whether a new connection gets in within five seconds: the server frees a closed one's place
    /// once it has seen the close.
    static func reconnects(to server: RunningServer) async throws -> Bool {
        for _ in 0..<50 {
            if (try? await server.peer()) != nil { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// A WebSocket handshake for /sync, sent raw: its HTTP status says why a refused one was refused.
    static func handshake(_ server: RunningServer) async throws -> Int {
        try await RawHTTP.exchange(
            port: server.port,
            head:
                "GET /sync HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).status
    }
}

extension Range where Bound == Int {
    fileprivate func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for index in self { results.append(try await transform(index)) }
        return results
    }
}
