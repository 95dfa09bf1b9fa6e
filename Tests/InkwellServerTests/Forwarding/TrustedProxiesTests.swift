import HTTPTypes
import NIOCore
import Testing

@testable import InkwellServer

/// Which client a request is counted under: the peer's address, unless the peer is a trusted proxy and its
/// forwarding headers name one.
@Suite struct TrustedProxiesTests {
    static let proxies = try! TrustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"])
    static let proxy = try! SocketAddress(ipAddress: "127.0.0.1", port: 40_000)

    static func client(
        from peer: SocketAddress? = proxy,
        forwarded: [String] = [],
        forwardedFor: [String] = [],
        proxies: TrustedProxies = proxies
    ) -> String? {
        var headers = HTTPFields()
        for value in forwarded { headers.append(HTTPField(name: .forwarded, value: value)) }
        for value in forwardedFor { headers.append(HTTPField(name: .xForwardedFor, value: value)) }
        return proxies.client(of: peer, headers: headers)?.ipAddress
    }

    @Test func anUntrustedPeersHeadersAreItsOwnWordsAndIgnored() throws {
        let stranger = try SocketAddress(ipAddress: "198.51.100.9", port: 1)
        #expect(Self.client(from: stranger, forwardedFor: ["192.0.2.1"]) == "198.51.100.9")
        #expect(Self.client(from: stranger, forwarded: ["for=192.0.2.1"]) == "198.51.100.9")
        #expect(Self.client(forwardedFor: ["192.0.2.1"], proxies: TrustedProxies()) == "127.0.0.1")
        #expect(Self.client(from: nil, forwardedFor: ["192.0.2.1"]) == nil, "a Unix socket has no address")
    }

    @Test func theWayBackIsWalkedFromTheRightPastTrustedProxies() throws {
        #expect(Self.client(forwardedFor: ["192.0.2.1"]) == "192.0.2.1")
        // The client wrote the left part itself; the proxies appended the right part.
        #expect(Self.client(forwardedFor: ["6.6.6.6, 192.0.2.1"]) == "192.0.2.1")
        #expect(Self.client(forwardedFor: ["6.6.6.6, 192.0.2.1, 10.1.2.3, 127.0.0.1"]) == "192.0.2.1")
        #expect(Self.client(forwardedFor: ["6.6.6.6", "192.0.2.1, 10.1.2.3"]) == "192.0.2.1", "across field lines")
        #expect(Self.client(forwarded: ["for=6.6.6.6, for=\"[2001:db8::7]:443\";proto=https"]) == "2001:db8::7")
        #expect(
            Self.client(forwarded: ["for=6.6.6.6", "for=192.0.2.1;by=10.0.0.1", "for=\"[fd00::3]\""]) == "192.0.2.1"
        )
        // Every hop a trusted proxy: the request began at the leftmost (a health check through the proxy).
        #expect(Self.client(forwardedFor: ["10.0.0.5, 127.0.0.1"]) == "10.0.0.5")
        // A trusted proxy reached over a dual-stack socket is the same proxy.
        #expect(
            Self.client(from: try SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 1), forwardedFor: ["192.0.2.1"])
                == "192.0.2.1"
        )
        #expect(
            Self.client(from: try SocketAddress(ipAddress: "fd00::1", port: 1), forwardedFor: ["::ffff:192.0.2.1"])
                == "192.0.2.1"
        )
    }

    /// Where the way back meets a hop with no address, or headers that disagree, nothing can be believed
    /// past the trusted proxy: the request is its peer's.
    @Test func whatNamesNoClientLeavesThePeer() {
        for forwardedFor in [
            [""], [" , "], ["unknown"], ["192.0.2.1, unknown"], ["192.0.2.1, _hidden"], ["192.0.2.1, garbage"],
            ["192.0.2.1, 10.0.0.1, example.com, 10.0.0.2"], [String(repeating: "x", count: 70_000)],
        ] {
            #expect(Self.client(forwardedFor: forwardedFor) == "127.0.0.1", "\(forwardedFor)")
        }
        for forwarded in [
            "for=unknown", "for=_hidden", "proto=https", "for=192.0.2.1, by=10.0.0.1", "for=192.0.2.1;for=192.0.2.2",
            "for=\"192.0.2.1", "for=192.0.2.1:80", "for=192.0.2.1, for=\"[::1]:99999\"",
        ] {
            #expect(Self.client(forwarded: [forwarded]) == "127.0.0.1", "\(forwarded)")
        }
        // A client's own Forwarded through a proxy that appends to X-Forwarded-For: the two disagree.
        #expect(Self.client(forwarded: ["for=6.6.6.6"], forwardedFor: ["192.0.2.1"]) == "127.0.0.1")
        #expect(Self.client(forwarded: ["for=192.0.2.1"], forwardedFor: ["192.0.2.1"]) == "192.0.2.1")
        #expect(Self.client(forwarded: ["for=\"192.0.2.1:5\""], forwardedFor: ["::ffff:192.0.2.1"]) == "192.0.2.1")
        #expect(Self.client(forwarded: ["for=unknown"], forwardedFor: ["192.0.2.1"]) == "127.0.0.1")
    }

    @Test func manyHopsAreWalkedInOnePass() {
        let trusted = Array(repeating: "10.0.0.1", count: 50_000).joined(separator: ",")
        #expect(Self.client(forwardedFor: ["192.0.2.1," + trusted]) == "192.0.2.1")
        let spoofed = Array(repeating: "6.6.6.6", count: 50_000).joined(separator: ",")
        #expect(Self.client(forwardedFor: [spoofed + ",192.0.2.1"]) == "192.0.2.1")
    }
}
