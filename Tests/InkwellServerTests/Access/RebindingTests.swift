import Foundation
import InkwellServer
import Testing

/// A DNS-rebinding page reaches a server on loopback under its own name: `Host: evil.example:PORT`, and an
/// `Origin` to match. The server answers only the names it serves, plain HTTP and the sync socket alike.
@Suite struct RebindingTests {
    @Test func aLoopbackServerRefusesOtherNames() async throws {
        let server = try await RunningServer.start()
        let port = server.port
        let health = try await Self.get("/healthz", port: port, host: "127.0.0.1:\(port)")
        #expect(health.status == 200)
        #expect(try await Self.get("/healthz", port: port, host: "localhost:\(port)").status == 200)

        let rebound = try await Self.get("/healthz", port: port, host: "evil.example:\(port)")
        #expect(rebound.status == 421)
        #expect(String(decoding: rebound.body, as: UTF8.self).contains("does not answer for that host"))
        #expect(rebound.headers["connection"] == "close")
        #expect(rebound.headers["x-content-type-options"] == "nosniff")
        #expect(rebound.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        #expect(try await Self.get("/healthz", port: port, host: nil).status == 421)

        let page = "http://evil.example:\(port)"
        let reboundHandshake = try await Self.handshake(port: port, host: "evil.example:\(port)", origin: page)
        #expect(reboundHandshake.status == 421, "\(reboundHandshake)")
        #expect(try await Self.handshake(port: port, host: "127.0.0.1:\(port)", origin: page).status == 400)
        let own = "http://127.0.0.1:\(port)"
        #expect(try await Self.handshake(port: port, host: "127.0.0.1:\(port)", origin: own).status == 101)
        #expect(server.server.metricsExposition.contains(#"inkwell_http_requests_total{method="GET",status="421"} 3"#))
        await server.stop()
    }

    @Test func behindAPublicURLOnlyItsHostIsServed() async throws {
        let server = try await RunningServer.start {
            $0.publicURLs = [URL(string: "https://board.example.com")!]
        }
        let port = server.port
        #expect(try await Self.get("/healthz", port: port, host: "board.example.com").status == 200)
        #expect(try await Self.get("/healthz", port: port, host: "127.0.0.1:\(port)").status == 421)
        #expect(try await Self.get("/healthz", port: port, host: "evil.example").status == 421)

        let origin = "https://board.example.com"
        #expect(try await Self.handshake(port: port, host: "board.example.com", origin: origin).status == 101)
        #expect(
            try await Self.handshake(port: port, host: "board.example.com", origin: "https://evil.example").status
                == 400
        )
        #expect(
            try await Self.handshake(port: port, host: "board.example.com", origin: "http://127.0.0.1:\(port)").status
                == 400
        )
        await server.stop()
    }

    /// The security policy lets the page open its own socket, under the name it was served with.
    @Test func thePolicyNamesTheSocketOfTheHostServed() async throws {
        let server = try await RunningServer.start {
            $0.publicURLs = [URL(string: "https://board.example.com")!]
        }
        let health = try await Self.get("/healthz", port: server.port, host: "board.example.com")
        #expect(
            health.headers["content-security-policy"]?.contains("connect-src 'self' wss://board.example.com;") == true
        )
        await server.stop()
    }

    static func get(_ path: String, port: Int, host: String?) async throws -> RawHTTP.Response {
        let host = host.map { "Host: \($0)\r\n" } ?? ""
        return try await RawHTTP.exchange(port: port, head: "GET \(path) HTTP/1.1\r\n\(host)Connection: close\r\n\r\n")
    }

    static func handshake(port: Int, host: String, origin: String) async throws -> RawHTTP.Response {
        try await RawHTTP.exchange(
            port: port,
            head: """
                GET /sync HTTP/1.1\r
                Host: \(host)\r
                Origin: \(origin)\r
                Connection: Upgrade\r
                Upgrade: websocket\r
                Sec-WebSocket-Version: 13\r
                Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
                \r

                """
        )
    }
}
