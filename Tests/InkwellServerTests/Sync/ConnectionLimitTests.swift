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
        let refused = try await RawHTTP.exchange(
            port: server.port,
            head:
                "GET /sync HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        #expect(refused.status == 429)
        await peers[0].socket.close()
        var reconnected = false
        for _ in 0..<50 where !reconnected {
            reconnected = (try? await server.peer()) != nil
            if !reconnected { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(reconnected, "a closed connection gives its slot back")
        await server.stop()
    }
}

extension Range where Bound == Int {
    fileprivate func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for index in self { results.append(try await transform(index)) }
        return results
    }
}
