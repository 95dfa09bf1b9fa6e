import Foundation
import InkwellServer
import Testing

@Suite struct HostPolicyTests {
    @Test func withoutPublicURLsLocalNamesAndAddressesOnTheServersPortAreServed() {
        let hosts = HostPolicy()
        for host in ["localhost:8080", "LOCALHOST:8080", "127.0.0.1:8080", "[::1]:8080", "192.168.1.20:8080"] {
            #expect(hosts.permits(host: host, port: 8080), "\(host)")
        }
        for host in [
            "evil.example:8080", "evil.example", "localhost:9090", "localhost", "127.0.0.1", "localhost.:8080",
            "sub.localhost:8080", "[::1", "::1:8080", "localhost:0", "localhost:99999", "", ":8080",
        ] {
            #expect(!hosts.permits(host: host, port: 8080), "\(host)")
        }
        #expect(!hosts.permits(host: nil, port: 8080))
    }

    @Test func theDefaultPortMayBeLeftOut() {
        #expect(HostPolicy().permits(host: "localhost", port: 80))
        #expect(!HostPolicy().permits(host: "localhost", port: 443))
        #expect(HostPolicy(isSecure: true).permits(host: "localhost", port: 443))
    }

    @Test func aNameGivenToListenOnIsServed() {
        let hosts = HostPolicy(listeningHost: "Board.LAN")
        #expect(hosts.permits(host: "board.lan:8080", port: 8080))
        #expect(!hosts.permits(host: "other.lan:8080", port: 8080))
    }

    @Test func publicURLsAloneDecideWhichHostsAreServed() throws {
        let hosts = HostPolicy(publicURLs: [
            try #require(URL(string: "https://Board.Example.com")),
            try #require(URL(string: "http://localhost:9999/")),
        ])
        for host in ["board.example.com", "board.example.com:443", "BOARD.example.com", "localhost:9999"] {
            #expect(hosts.permits(host: host, port: 8080), "\(host)")
        }
        for host in ["board.example.com:8080", "127.0.0.1:8080", "localhost:8080", "evil.example", "localhost"] {
            #expect(!hosts.permits(host: host, port: 8080), "\(host)")
        }
    }

    @Test func ownOriginsComeFromTheServedHostsNotFromTheRequest() throws {
        let local = HostPolicy()
        #expect(local.isOwnOrigin("http://127.0.0.1:8080", port: 8080))
        #expect(local.isOwnOrigin("http://localhost:8080", port: 8080))
        // A rebinding page's origin matches the Host it sends, but names no host of ours.
        #expect(!local.isOwnOrigin("http://evil.example:8080", port: 8080))
        #expect(!local.isOwnOrigin("https://localhost:8080", port: 8080))
        #expect(!local.isOwnOrigin("http://localhost:8080/path", port: 8080))
        #expect(!local.isOwnOrigin("null", port: 8080))
        #expect(HostPolicy(isSecure: true).isOwnOrigin("https://localhost:8443", port: 8443))

        let public_ = HostPolicy(publicURLs: [try #require(URL(string: "https://board.example.com"))])
        #expect(public_.isOwnOrigin("https://board.example.com", port: 8080))
        #expect(!public_.isOwnOrigin("http://board.example.com", port: 8080))
        #expect(!public_.isOwnOrigin("http://127.0.0.1:8080", port: 8080))
    }

    @Test func theSocketOriginFollowsTheSchemeThePageWasServedWith() throws {
        #expect(HostPolicy().socketOrigin(host: "127.0.0.1:8080", port: 8080) == "ws://127.0.0.1:8080")
        #expect(HostPolicy(isSecure: true).socketOrigin(host: "localhost:8443", port: 8443) == "wss://localhost:8443")
        let behindProxy = HostPolicy(publicURLs: [try #require(URL(string: "https://board.example.com"))])
        #expect(behindProxy.socketOrigin(host: "board.example.com", port: 8080) == "wss://board.example.com")
        #expect(HostPolicy().socketOrigin(host: "evil.example:8080", port: 8080) == nil)
    }
}
