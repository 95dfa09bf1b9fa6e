import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InkwellServer
import Testing

@Suite struct SecurityHeadersTests {
    static let policy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
        + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

    /// Pages, files, JSON answers and errors alike: whatever a browser might render or sniff.
    @Test func everyResponseCarriesThem() async throws {
        let fixture = try HTTPFixture()
        try fixture.webFolder.write("index.html", StaticAndErrorRoutesTests.index)
        try await fixture.run { client in
            for (method, uri) in [
                (HTTPRequest.Method.get, "/"), (.get, "/r/a-room"), (.get, "/healthz"), (.get, "/metrics"),
                (.get, "/nowhere"), (.head, "/rooms/a-room/blobs/nothing"), (.post, "/healthz"),
            ] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.headers[.contentSecurityPolicy] == Self.policy, "\(method) \(uri)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(method) \(uri)")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(method) \(uri)")
                #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY", "\(method) \(uri)")
            }
        }
    }

    @Test func connectionsAreLimitedToTheServerAndItsOwnSocket() throws {
        let policy = SecurityHeaders.contentSecurityPolicy(socketOrigin: "wss://board.example.com")
        #expect(policy.contains("; connect-src 'self' wss://board.example.com;"))
        #expect(!policy.contains("unsafe"))
        #expect(!policy.contains("ws: "))
    }
}
