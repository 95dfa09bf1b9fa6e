import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import InkwellServer
import InkwellStore
import InkwellWire
import Logging
import Testing

/// Room links name their room and may carry a capability: neither may reach the logs at `info` or above.
/// A blob request's capability, in its `Authorization` header, reaches no log at all.
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

    /// A blob's capability travels in a header, which is never logged, at any level; its room and hash stay
    /// out of the lines at `info` and above.
    @Test func aBlobRequestIsLoggedWithoutItsRoomOrCapability() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("SOMEROOM", in: fixture.log)
        let blob = TestBlob(count: 100, seed: 50)
        try await fixture.run(logLevel: .trace) { client in
            let put = try await client.put(blob, in: room.name, as: room.edit)
            #expect(put.status == .created)
            let get = try await client.get(blob, in: room.name, as: room.admin)
            #expect(get.status == .ok)
        }
        let entries = fixture.logs.entries
        #expect(
            entries.filter { $0.message == "request" }.map { $0.metadata["http.path"] } == ["/rooms/…", "/rooms/…"]
        )
        for entry in entries {
            let text = "\(entry.message) \(entry.metadata)"
            for capability in [room.edit, room.admin] {
                #expect(!text.contains(capability.text), "\(entry.level): \(text)")
            }
            if entry.level >= .info {
                #expect(!text.contains("SOMEROOM") && !text.contains(blob.hash.hex), "\(entry.level): \(text)")
            }
        }
    }

    @Test func otherPathsAreLoggedWithoutTheirQuery() {
        #expect(RequestLogMiddleware<BasicRequestContext>.loggedPath("/healthz") == "/healthz")
        #expect(RequestLogMiddleware<BasicRequestContext>.loggedPath("/nowhere?cap=x") == "/nowhere")
        #expect(RequestLogMiddleware<BasicRequestContext>.loggedPath("/r/") == "/r/…")
        #expect(RequestLogMiddleware<BasicRequestContext>.loggedPath("/rooms/a/blobs/b") == "/rooms/…")
    }
}
