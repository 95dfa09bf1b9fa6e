import Foundation
import InkwellClient
import InkwellServer
import Testing

/// The limits per address against a real server on loopback, whose peer is 127.0.0.1: a client's own
/// forwarding headers change nothing, a trusted proxy's give each client it forwards a bucket of its own, and
/// headers that name no client leave the request the proxy's, whatever bytes they hold.
@Suite struct TrustedProxyTests {
    /// One connection per address, and one blob per address (each blob counts as 4 KiB, the whole burst,
    /// refilled at a byte a second).
    static var limits: ServerLimits {
        var limits = ServerLimits()
        limits.maximumConnectionsPerAddress = 1
        limits.maximumBlobBytes = PackLog.minimumBlobCharge
        limits.blobByteBurstPerAddress = Double(PackLog.minimumBlobCharge)
        limits.blobBytesPerSecondPerAddress = 1
        return limits
    }

    static func start(trusting proxies: [String]) async throws -> RunningServer {
        try await RunningServer.start(limits: limits) { $0.trustedProxies = proxies }
    }

    /// A new blob, uploaded to an open room with `headers` (lines without their CRLF): the status.
    static func upload(_ server: RunningServer, seed: UInt64, headers: [String]) async throws -> Int {
        let blob = TestBlob(count: 100, seed: seed)
        let head =
            "PUT \(blob.url(in: "proxied")) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + headers.map { $0 + "\r\n" }.joined() + "Content-Length: \(blob.bytes.count)\r\n\r\n"
        return try await RawHTTP.exchange(port: server.port, head: head, body: .whole(blob.bytes)).status
    }

    @Test(arguments: [[], ["10.0.0.0/8", "::1"]])
    func anUntrustedPeersHeadersChangeNothing(proxies: [String]) async throws {
        let server = try await Self.start(trusting: proxies)
        let first = try await server.peer(headers: ["X-Forwarded-For": "192.0.2.1"])
        await #expect(throws: (any Error).self, "another connection from 127.0.0.1, whatever it says") {
            _ = try await server.peer(headers: ["X-Forwarded-For": "192.0.2.2", "Forwarded": "for=192.0.2.3"])
        }
        #expect(try await Self.upload(server, seed: 1, headers: ["X-Forwarded-For: 192.0.2.1"]) == 201)
        #expect(try await Self.upload(server, seed: 2, headers: ["X-Forwarded-For: 192.0.2.2"]) == 429)
        #expect(try await Self.upload(server, seed: 3, headers: ["Forwarded: for=192.0.2.3"]) == 429)
        await first.socket.close()
        await server.stop()
    }

    @Test func clientsForwardedByATrustedProxyHaveBucketsOfTheirOwn() async throws {
        let server = try await Self.start(trusting: ["127.0.0.1"])
        let first = try await server.peer(headers: ["X-Forwarded-For": "6.6.6.6, 192.0.2.1"])
        let second = try await server.peer(headers: ["Forwarded": "for=\"[2001:db8::2]:5000\""])
        let proxy = try await server.peer()
        await #expect(throws: (any Error).self, "192.0.2.1 holds its one connection") {
            _ = try await server.peer(headers: ["X-Forwarded-For": "192.0.2.1"])
        }
        await #expect(throws: (any Error).self, "so does the proxy itself") { _ = try await server.peer() }

        #expect(try await Self.upload(server, seed: 10, headers: ["X-Forwarded-For: 192.0.2.1"]) == 201)
        #expect(try await Self.upload(server, seed: 11, headers: ["X-Forwarded-For: 192.0.2.1"]) == 429)
        #expect(try await Self.upload(server, seed: 12, headers: ["X-Forwarded-For: 192.0.2.2"]) == 201)
        #expect(try await Self.upload(server, seed: 13, headers: ["Forwarded: for=192.0.2.2"]) == 429, "one client")
        #expect(try await Self.upload(server, seed: 14, headers: []) == 201, "the proxy's own bucket")
        #expect(try await Self.upload(server, seed: 15, headers: []) == 429)
        for peer in [first, second, proxy] { await peer.socket.close() }
        await server.stop()
    }

    /// Headers that name no client count against the proxy's own bucket, one upload between them all; the
    /// forms that do name one (ports, IPv6, quoted, several lines) each get their own. The server answers
    /// every request and is healthy after.
    @Test func hostileHeadersThroughATrustedProxyAreCountedAsTheProxy() async throws {
        let server = try await Self.start(trusting: ["127.0.0.1"])
        let hops = Array(repeating: "10.1.1.1", count: 4_000).joined(separator: ", ")
        let unnamed: [[String]] = [
            ["X-Forwarded-For: unknown"],
            ["X-Forwarded-For: 192.0.2.1, _obfuscated"],
            ["X-Forwarded-For: \(hops), unknown"],
            ["X-Forwarded-For: not an address at all"],
            ["X-Forwarded-For: 192.0.2.1:99999"],
            ["Forwarded: for=\"_hidden:_port\""],
            ["Forwarded: for=\"192.0.2.1"],
            ["Forwarded: for=192.0.2.1;for=192.0.2.2"],
            ["Forwarded: proto=https;host=example.com"],
            ["Forwarded: for=[2001:db8::1]"],
            ["Forwarded: for=6.6.6.6", "X-Forwarded-For: 192.0.2.9"],
        ]
        var statuses: [Int] = []
        for (index, headers) in unnamed.enumerated() {
            statuses.append(try await Self.upload(server, seed: 100 + UInt64(index), headers: headers))
        }
        #expect(statuses == [201] + Array(repeating: 429, count: unnamed.count - 1), "\(statuses)")

        let named: [[String]] = [
            ["X-Forwarded-For: 198.51.100.1:41237"],
            ["X-Forwarded-For: [2001:db8:1::5]:443"],
            ["X-Forwarded-For: 2001:db8:2::5"],
            ["X-Forwarded-For: 6.6.6.6", "X-Forwarded-For: 198.51.100.2, \(hops)"],
            ["Forwarded: For=\"[2001:db8:3::5]:_port\";proto=https"],
            ["Forwarded: for=\"198.51.100.3:80\", for=127.0.0.1"],
            ["Forwarded: for=198.51.100.4", "X-Forwarded-For: 198.51.100.4"],
        ]
        for (index, headers) in named.enumerated() {
            #expect(try await Self.upload(server, seed: 200 + UInt64(index), headers: headers) == 201, "\(headers)")
        }

        // The sync socket likewise: the first connection that names no client holds the proxy's one slot.
        let held = try await server.peer(headers: ["X-Forwarded-For": "192.0.2.1, unknown"])
        await #expect(throws: (any Error).self, "the proxy's slot is taken") {
            _ = try await server.peer(headers: ["Forwarded": "for=\"_hidden\""])
        }
        let forwarded = try await server.peer(headers: ["Forwarded": "for=\"[2001:db8:4::1]\""])

        // Control bytes, and a head past the server's bound: refused or counted as the proxy, not a trap.
        let control = try await Self.upload(server, seed: 300, headers: ["X-Forwarded-For: \u{7f}\u{1}1.2.3.4"])
        #expect([400, 429].contains(control), "\(control)")
        let huge = "X-Forwarded-For: " + String(repeating: "1.2.3.4,", count: 20_000)
        let refused = try? await Self.upload(server, seed: 301, headers: [huge])
        #expect(refused.map { $0 >= 400 } ?? true, "\(String(describing: refused))")
        let health = try await RawHTTP.exchange(
            port: server.port,
            head: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        )
        #expect(health.status == 200)
        for peer in [held, forwarded] { await peer.socket.close() }
        await server.stop()
    }
}
