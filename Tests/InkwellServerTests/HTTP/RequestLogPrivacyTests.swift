import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import InkwellServer
import Logging
import Testing

/// Room links name their room and may carry a capability: neither may reach the logs at `info` or above.
@Suite struct RequestLogPrivacyTests {
    @Test func aRoomLinkIsLoggedWithoutItsRoomOrQuery() async throws {
        let fixture = try HTTPFixture()
        try fixture.webFolder.write("index.html", StaticAndErrorRoutesTests.index)
        try await fixture.run(logLevel: .trace) { client in
            let page = try await client.execute(uri: "/r/SOMEROOM?cap=SECRET", method: .get)
            #expect(page.status == .ok)
            let missing = try await client.execute(uri: "/r/SOMEROOM/more?cap=SECRET", method: .get)
            #expect(missing.status == .notFound)
        }
        let entries = fixture.logs.entries
        let request = try #require(entries.first { $0.message == "request" })
        #expect(request.metadata["http.path"] == "/r/…")
        for entry in entries where entry.level >= .info {
            let text = "\(entry.message) \(entry.metadata)"
            #expect(!text.contains("SOMEROOM"), "\(entry.level): \(text)")
            #expect(!text.contains("SECRET"), "\(entry.level): \(text)")
        }
        // The whole target is there for whoever turns on debug logs.
        #expect(entries.contains { $0.level == .debug && "\($0.metadata)".contains("/r/SOMEROOM?cap=SECRET") })
    }

    @Test func otherPathsAreLoggedWithoutTheirQuery() {
        #expect(RequestLogMiddleware<BasicRequestContext>.loggedPath("/healthz") == "/healthz")
        #expect(RequestLogMiddleware<BasicRequestContext>.loggedPath("/nowhere?cap=x") == "/nowhere")
        #expect(RequestLogMiddleware<BasicRequestContext>.loggedPath("/r/") == "/r/…")
    }
}
