import Foundation
import InkwellClient
import InkwellTesting
import Testing

/// An image placed by one headless peer reaches another through a real server: sealed on an encrypted board,
/// fetched into the other's store, embedded in its SVG, and still there offline from the store alone.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ImagePeerTests {
    /// A 1×1 PNG.
    static let png = [UInt8](
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
        )!
    )

    @Test func aPlacedImageReachesAnotherPeerAndStaysInItsStore() async throws {
        let scratch = try TemporaryDirectory("image-peer")
        let server = try await ServerProcess.start(data: scratch.url.appendingPathComponent("server"), openRooms: false)
        defer { Task { _ = await server.stop() } }
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }

        let shared = try await InkwellProcess.running(["share", "--server", server.address, "--data", path("owner")])
        #expect(shared.status == 0, "\(shared.standardError)")
        let lines = shared.standardOutput.split(separator: "\n").map(String.init)
        let edit = try #require(lines.first.flatMap { RoomLink(String($0.dropFirst(5))) })
        let view = try #require(lines.last.flatMap { RoomLink(String($0.dropFirst(5))) })
        try Data(Self.png).write(to: URL(fileURLWithPath: path("dot.png")))
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: path("note.png")))

        let refused = try await InkwellProcess.running([
            "join", edit.description, "--image", path("note.png"), "--wait-synced", "--timeout", "30",
        ])
        #expect(refused.status != 0 && refused.standardError.contains("is not a PNG"), "\(refused.standardError)")

        let placed = try await InkwellProcess.running([
            "join", edit.description, "--data", path("placer"), "--image", path("dot.png"), "--image-size", "64x48",
            "--wait-synced", "--timeout", "30",
        ])
        #expect(placed.status == 0, "\(placed.standardError)")

        let received = try await InkwellProcess.running([
            "join", view.description, "--data", path("viewer"), "--wait-synced", "--timeout", "30",
            "--export-svg", path("viewer.svg"),
        ])
        #expect(received.status == 0, "\(received.standardError)")
        #expect(received.standardOutput == placed.standardOutput, "both peers hold the same board")
        let embedded = "href=\"data:image/png;base64,\(Data(Self.png).base64EncodedString())\""
        let svg = try String(contentsOfFile: path("viewer.svg"), encoding: .utf8)
        #expect(svg.contains(embedded) && svg.contains("width=\"64\" height=\"48\""), "\(svg)")

        // Offline, from the viewer's store alone.
        _ = await server.stop()
        let offline = try await InkwellProcess.running([
            "export", view.room, "--data", path("viewer"), "--svg", path("offline.svg"),
        ])
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(try String(contentsOfFile: path("offline.svg"), encoding: .utf8).contains(embedded))
    }
}
