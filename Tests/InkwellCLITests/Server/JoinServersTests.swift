import Foundation
import InkwellTesting
import Testing

/// `inkwell join` given several servers (the nodes of one cluster) tries them in turn: a node that does
/// not answer costs a retry, not the peer's work.
@Suite(.serialized) struct JoinServersTests {
    @Test func aPeerGivenSeveralServersSyncsThroughOneThatAnswers() async throws {
        let data = try TemporaryDirectory("join-servers")
        let server = try await ServerProcess.start(data: data.url)
        let live = "http://127.0.0.1:\(server.port)"
        // A port nothing listens on: the first node tried is down.
        let down = "http://127.0.0.1:\(try ServerProcess.freePort())"
        let drawer = try await InkwellProcess.running([
            "join", "room", "--server", down, "--server", live, "--draw", "3", "--seed", "7", "--wait-synced",
            "--timeout", "60",
        ])
        #expect(drawer.status == 0, "\(drawer.standardError)")
        let reader = try await InkwellProcess.running([
            "join", "room", "--server", live, "--wait-synced", "--timeout", "60",
        ])
        #expect(reader.status == 0, "\(reader.standardError)")
        let drawn = drawer.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(drawn.contains("3 strokes"), "\(drawn)")
        #expect(reader.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == drawn)
        _ = await server.stop()
    }
}
