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

        // A few strokes that fit, stored before the rest is drawn: however the device groups what it
        // draws into packs (all in one, on a machine slow to connect), these are on the board.
        let first = try await InkwellProcess.running([
            "join", "quota-board", "--server", server.address, "--data", path("artist"), "--draw", "3",
            "--seed", "5", "--wait-synced",
        ])
        #expect(first.status == 0, "3 strokes fit in 4,000 bytes: \(first.standardError)")
        let drawn = try await InkwellProcess.running([
            "join", "quota-board", "--server", server.address, "--data", path("artist"), "--draw", "40",
            "--seed", "6", "--wait-synced", "--timeout", "8",
        ])
        #expect(drawn.status != 0, "40 more strokes do not fit in 4,000 bytes: \(drawn.standardOutput)")
        #expect(drawn.standardError.contains("this board is full"), "\(drawn.standardError)")

        // What the server took, another device reads whole; the artist's store still holds all 43.
        let watched = try await InkwellProcess.running([
            "join", "quota-board", "--server", server.address, "--data", path("watcher"), "--wait-synced",
        ])
        #expect(watched.status == 0, "\(watched.standardError)")
        let strokes = try #require(Self.strokes(in: watched.standardOutput))
        #expect(strokes >= 3 && strokes < 43, "\(watched.standardOutput)")
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
