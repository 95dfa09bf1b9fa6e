import Foundation
import InkwellClient
import InkwellTesting
import Testing

/// `/interop/ROOM` on `inkwell serve`, driven by a small Python app written from `interop-protocol.md`
/// alone (`Examples/interop-client/interop_client.py`): its strokes and erasures reach `inkwell join`
/// peers, theirs come back to it as ADD + APPEND and DELETE, malformed messages get an ERROR and change
/// nothing, and encrypted boards and view links are refused in plain words.
@Suite(.serialized) struct InteropCommandTests {
    static let client = ConformanceVectorFile.packageRoot.appendingPathComponent(
        "Examples/interop-client/interop_client.py"
    )

    /// `python3` as the shell finds it, as `.ci/run` runs the browser tests.
    static let env = URL(fileURLWithPath: "/usr/bin/env")

    /// Whether Python and its WebSocket client (which Selenium brings, Scripts/install-browser.sh) are here.
    static var pythonReady: Bool {
        (try? InkwellProcess.run(["python3", "-c", "import websocket"], binary: Self.env))?.status == 0
    }

    static func python(_ arguments: [String]) async throws -> (status: Int32, messages: [[String: Any]], error: String)
    {
        let result = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try InkwellProcess.run(["python3", Self.client.path] + arguments, binary: Self.env)
                    }
                )
            }
        }
        let messages = result.standardOutput.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return (result.status, messages, result.standardError)
    }

    /// The interop URL of a board's link: its room, and its capability as `cap`.
    static func interopURL(_ link: String, port: Int) throws -> String {
        let parsed = try #require(RoomLink(link))
        let cap = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "cap" }?.value)
        return "ws://127.0.0.1:\(port)/interop/\(parsed.room)?cap=\(cap)"
    }

    @Test func aPythonAppDrawsAndErasesWithInkwellPeersOnAPlainBoard() async throws {
        guard Self.pythonReady else {
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "CI has python3 with websocket-client")
            print(
                "InteropCommandTests: skipped, python3 with websocket-client is not here (bash Scripts/install-browser.sh)"
            )
            return
        }
        let scratch = try TemporaryDirectory("interop")
        let server = try await ServerProcess.start(data: scratch.url.appendingPathComponent("server"), openRooms: false)
        defer { Task { _ = await server.stop() } }
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }
        func links(_ extra: [String]) async throws -> (edit: String, view: String) {
            let shared = try await InkwellProcess.running(
                ["share", "--server", server.address, "--data", path("owner")] + extra
            )
            #expect(shared.status == 0, "\(shared.standardError)")
            let lines = shared.standardOutput.split(separator: "\n").map(String.init)
            try #require(lines.count == 2)
            return (String(lines[0].dropFirst(5)), String(lines[1].dropFirst(5)))
        }

        let plain = try await links(["--plain"])
        let drawn = try await InkwellProcess.running([
            "join", plain.edit, "--draw", "3", "--seed", "4", "--wait-synced",
        ])
        #expect(drawn.status == 0, "\(drawn.standardError)")
        let url = try Self.interopURL(plain.edit, port: server.port)

        // The app draws two strokes, erases the middle of its first, and all of the first it heard.
        let app = try await Self.python([
            url, "--draw", "2", "--erase-own", "0:1:2", "--erase-theirs", "0", "--expect-adds", "3",
        ])
        #expect(app.status == 0, "\(app.error)")
        let heard = app.messages.filter { $0["type"] as? String == "ADD" }
        #expect(heard.count == 3, "the peer's three strokes, each an ADD: \(heard)")
        #expect(
            app.messages.filter { $0["type"] as? String == "APPEND" }.count == 3,
            "and an APPEND of the rest of its points"
        )

        let peer = try await InkwellProcess.running(["join", plain.edit, "--wait-synced"])
        #expect(peer.status == 0, "\(peer.standardError)")
        // 3 strokes, the app's 2 ADDs and 2 APPENDs and 2 DELETEs; one of the peer's strokes is gone.
        #expect(peer.standardOutput.contains(": 9 changes, 4 strokes, hash "), "\(peer.standardOutput)")

        // Another app joining later hears everything, the partial erase as a DELETE of its interval.
        let later = try await Self.python([url, "--expect-adds", "5"])
        #expect(later.status == 0, "\(later.error)")
        let deletes = later.messages.filter { $0["type"] as? String == "DELETE" }
        let intervals = deletes.compactMap { message -> [Double]? in
            guard let start = message["start_offset"] as? Double, let end = message["end_offset"] as? Double else {
                return nil
            }
            return [start, end]
        }
        #expect(intervals.contains([1, 2]) && intervals.contains { $0[0] == 0 && $0[1] > 2 }, "\(deletes)")

        // Malformed messages: an ERROR each, and nothing changes.
        let hostile = try await Self.python([
            url, "--send-raw", #"{"type":"ADD"}"#, "--send-raw", "not json", "--send-raw",
            #"{"type":"APPEND","identifier":"x","points":[[1e999,0]]}"#, "--send-raw",
            #"{"type":"MOVE","identifier":"x"}"#,
            "--send-raw", #"{"type":"ADD","identifier":"w","weight":-1,"colour":[0,0,0],"start":[0,0]}"#,
        ])
        let errors = hostile.messages.filter { $0["type"] as? String == "ERROR" }
        #expect(errors.count == 5, "\(hostile.messages.filter { $0["type"] as? String != "APPEND" })")
        let after = try await InkwellProcess.running(["join", plain.edit, "--wait-synced"])
        #expect(after.standardOutput == peer.standardOutput, "\(after.standardOutput)")

        // A view link cannot draw, and an encrypted board is not the protocol's to speak for.
        let viewer = try await Self.python([try Self.interopURL(plain.view, port: server.port)])
        #expect(viewer.status == 1)
        #expect(
            viewer.messages.contains { ($0["message"] as? String)?.contains("needs a link that can edit") == true },
            "\(viewer.messages)"
        )
        let sealed = try await links([])
        let sealedDrawn = try await InkwellProcess.running([
            "join", sealed.edit, "--data", path("sealed"), "--draw", "1", "--wait-synced",
        ])
        #expect(sealedDrawn.status == 0, "\(sealedDrawn.standardError)")
        let refused = try await Self.python([try Self.interopURL(sealed.edit, port: server.port)])
        #expect(refused.status == 1)
        #expect(
            refused.messages.contains { ($0["message"] as? String)?.contains("end-to-end encrypted") == true },
            "\(refused.messages)"
        )
    }
}
