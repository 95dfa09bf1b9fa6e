import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import InkwellServer
import InkwellTesting
import Logging
import Testing

@Suite struct StaticAndErrorRoutesTests {
    static let index = "<!doctype html><title>Inkwell</title><script type=module src=/js/app.js></script>\n"
    static let script = "export const inkwell = 1;\n"

    @Test func theWebClientIsServedAndRoomLinksOpenIt() async throws {
        let fixture = try HTTPFixture()
        try fixture.webFolder.write("index.html", Self.index)
        try fixture.webFolder.write("js/app.js", Self.script)
        try await fixture.run { client in
            let root = try await client.execute(uri: "/", method: .get)
            #expect(root.status == .ok)
            #expect(root.text == Self.index)
            #expect(root.headers[.contentType]?.hasPrefix("text/html") == true)

            let script = try await client.execute(uri: "/js/app.js", method: .get)
            #expect(script.status == .ok)
            #expect(script.text == Self.script)
            #expect(script.headers[.cacheControl] == "no-cache")

            let room = try await client.execute(uri: "/r/some-room", method: .get)
            #expect(room.status == .ok)
            #expect(room.text == Self.index)
            #expect(room.headers[.contentType] == "text/html; charset=utf-8")
        }
    }

    @Test func aRoomLinkWithoutTheWebClientIs404() async throws {
        let fixture = try HTTPFixture()
        try await fixture.run { client in
            let room = try await client.execute(uri: "/r/some-room", method: .get)
            #expect(room.status == .notFound)
            #expect(try room.json()["error"] as? String == "the web client is not installed")
        }
    }

    @Test func unknownPathsAreJSON404s() async throws {
        let fixture = try HTTPFixture()
        try fixture.webFolder.write("index.html", Self.index)
        try await fixture.run { client in
            for (method, uri) in [(HTTPRequest.Method.get, "/nowhere"), (.post, "/healthz"), (.delete, "/app.js")] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .notFound, "\(method) \(uri)")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.text == #"{"error":"not found"}"#)
            }
        }
    }

    @Test func anUnexpectedErrorIsAJSON500ThatIsLogged() async throws {
        struct Unexpected: Error {}
        let fixture = try HTTPFixture()
        let router = fixture.router()
        router.get("/broken") { _, _ -> Response in throw Unexpected() }
        try await fixture.run(.router, router: router) { client in
            let response = try await client.execute(uri: "/broken", method: .get)
            #expect(response.status == .internalServerError)
            #expect(response.text == #"{"error":"internal server error"}"#)
        }
        #expect(fixture.logs.entries.contains { $0.level == .error && $0.message == "request failed" })
        let lines = ServerMetricsTests.samples(fixture.metrics)
        #expect(lines.contains(#"inkwell_http_requests_total{method="GET",status="500"} 1"#))
    }

    @Test func everyRequestIsLoggedWithItsRequestID() async throws {
        let fixture = try HTTPFixture()
        try await fixture.run { client in
            _ = try await client.execute(uri: "/healthz", method: .get)
            _ = try await client.execute(uri: "/nowhere?secret=1", method: .get)
        }
        let lines = fixture.logs.entries.filter { $0.message == "request" }
        #expect(lines.count == 2)
        let healthz = try #require(lines.first { $0.metadata["http.path"] == "/healthz" })
        #expect(healthz.level == .info)
        #expect(healthz.metadata["http.method"] == "GET")
        #expect(healthz.metadata["http.status"] == "200")
        let duration = try #require(healthz.metadata["http.duration_seconds"].flatMap { Double("\($0)") })
        #expect(duration >= 0 && duration < 10)
        let missing = try #require(lines.first { $0.metadata["http.path"] == "/nowhere" })
        #expect(missing.metadata["http.status"] == "404")
        let ids = lines.compactMap { $0.metadata["hb.request.id"].map { "\($0)" } }
        #expect(ids.count == 2)
        #expect(Set(ids).count == 2)
    }
}
