import Foundation
import InkwellClient
import InkwellTesting
import InkwellWire
import Testing

/// `inkwell share`, `join LINK` and `export LINK` as scripts use them, against a real server started
/// without open rooms.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ShareCommandTests {
    @Test func sharePrintsLinksThatJoinAndExportOpenWithTheirRights() async throws {
        let scratch = try TemporaryDirectory("share")
        let server = try await ServerProcess.start(data: scratch.url.appendingPathComponent("server"), openRooms: false)
        defer { Task { _ = await server.stop() } }
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }

        let shared = try await InkwellProcess.running(["share", "--server", server.address, "--data", path("owner")])
        #expect(shared.status == 0, "\(shared.standardError)")
        let lines = shared.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("edit ") && lines[1].hasPrefix("view "), "\(lines)")
        let edit = try #require(RoomLink(String(lines[0].dropFirst(5))))
        let view = try #require(RoomLink(String(lines[1].dropFirst(5))))
        #expect(edit.room == view.room && edit.room.count == 22)
        #expect(edit.capability?.kind == .edit && view.capability?.kind == .view)
        #expect(edit.key != nil && edit.key == view.key, "a new board is encrypted: both links carry its key")

        let drawn = try await InkwellProcess.running(
            ["join", edit.description, "--data", path("editor"), "--draw", "4", "--wait-synced"]
        )
        #expect(drawn.status == 0, "\(drawn.standardError)")
        let watched = try await InkwellProcess.running([
            "join", view.description, "--data", path("viewer"), "--wait-synced",
        ])
        #expect(watched.status == 0, "\(watched.standardError)")
        #expect(drawn.standardOutput.contains(", 4 strokes, hash ") && watched.standardOutput == drawn.standardOutput)

        let refused = try await InkwellProcess.running(
            ["join", view.description, "--data", path("viewer"), "--draw", "1", "--wait-synced"]
        )
        #expect(refused.status != 0 && refused.standardError.contains("only a view link"), "\(refused.standardError)")

        // The owner replaces the view link: the old one no longer opens the board, the new one does.
        let rotated = try await InkwellProcess.running(
            ["share", edit.room, "--server", server.address, "--data", path("owner"), "--rotate", "view"]
        )
        #expect(rotated.status == 0, "\(rotated.standardError)")
        let newLines = rotated.standardOutput.split(separator: "\n").map(String.init)
        #expect(newLines.first == lines[0], "the edit link is kept")
        #expect(newLines.last != lines[1], "the view link is new")
        let stale = try await InkwellProcess.running(["export", view.description, "--svg", path("stale.svg")])
        #expect(stale.status != 0 && stale.standardError.contains("does not open the board"), "\(stale.standardError)")
        let newView = try #require(newLines.last.map { String($0.dropFirst(5)) })
        let exported = try await InkwellProcess.running(["export", newView, "--svg", path("board.svg")])
        #expect(exported.status == 0, "\(exported.standardError)")
        let svg = try String(contentsOfFile: path("board.svg"), encoding: .utf8)
        #expect(svg.components(separatedBy: "<path").count - 1 == 4)

        // Only the store that made the board may share it; a plain board's links carry no key.
        let stranger = try await InkwellProcess.running(
            ["share", edit.room, "--server", server.address, "--data", path("editor")]
        )
        #expect(stranger.status != 0 && stranger.standardError.contains("does not administer"))
        let plain = try await InkwellProcess.running([
            "share", "--server", server.address, "--data", path("owner"), "--plain",
        ])
        #expect(plain.status == 0 && !plain.standardOutput.contains("#key="), "\(plain.standardOutput)")
    }
}
