import Foundation
import InkwellStore
import InkwellTesting
import Testing

/// `inkwell serve --room-bytes`: a board that reaches it takes no more pushes, the device that drew
/// keeps its strokes and hears why, and the server goes on serving the board and every other.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct RoomQuotaCommandTests {
    @Test func aFullBoardKeepsItsInkOnTheDeviceAndSaysSo() async throws {
        let scratch = try TemporaryDirectory("room-quota")
        let server = try await ServerProcess.start(
            data: scratch.url.appendingPathComponent("server"),
            arguments: ["--room-bytes", "4000"]
        )
        defer { Task { _ = await server.stop() } }
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }

        let drawn = try await InkwellProcess.running([
            "join", "quota-board", "--server", server.address, "--data", path("artist"), "--draw", "40",
            "--seed", "5", "--wait-synced", "--timeout", "8",
        ])
        #expect(drawn.status != 0, "40 strokes do not fit in 4,000 bytes: \(drawn.standardOutput)")
        #expect(drawn.standardError.contains("this board is full"), "\(drawn.standardError)")

        // What the server took, another device reads whole; the artist's store still holds all 40.
        let watched = try await InkwellProcess.running([
            "join", "quota-board", "--server", server.address, "--data", path("watcher"), "--wait-synced",
        ])
        #expect(watched.status == 0, "\(watched.standardError)")
        let strokes = try #require(Self.strokes(in: watched.standardOutput))
        #expect(strokes > 0 && strokes < 40, "\(watched.standardOutput)")
        let store = try Store(path: path("artist") + "/store.sqlite")
        #expect(try store.outbox().contains { $0.room == "quota-board" }, "the strokes the server refused stay queued")

        let elsewhere = try await InkwellProcess.running([
            "join", "other-board", "--server", server.address, "--data", path("second"), "--draw", "2",
            "--wait-synced",
        ])
        #expect(elsewhere.status == 0, "other boards go on: \(elsewhere.standardError)")
        #expect(server.child.isRunning)
    }

    /// The stroke count of a board report line (`…, N strokes, hash …`).
    static func strokes(in report: String) -> Int? {
        guard let range = report.range(of: " strokes, hash ") else { return nil }
        return Int(report[..<range.lowerBound].split(separator: " ").last ?? "")
    }
}
