import Foundation
import InkwellClient
import InkwellTesting
import InkwellWire
import Testing

/// `inkwell blob put` and `blob get` as scripts use them, with the links `inkwell share` prints, against a
/// real server started without open rooms.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BlobCommandTests {
    @Test func putPrintsTheHashAndGetWritesTheBytesOpenedWithTheBoardsKey() async throws {
        let scratch = try TemporaryDirectory("blob")
        let server = try await ServerProcess.start(
            data: scratch.url.appendingPathComponent("server"),
            arguments: ["--room-blob-bytes", "300000"],
            openRooms: false
        )
        defer { Task { _ = await server.stop() } }
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }

        let shared = try await InkwellProcess.running(["share", "--server", server.address, "--data", path("owner")])
        #expect(shared.status == 0, "\(shared.standardError)")
        let lines = shared.standardOutput.split(separator: "\n").map(String.init)
        let edit = try #require(lines.first.flatMap { RoomLink(String($0.dropFirst(5))) })
        let view = try #require(lines.last.flatMap { RoomLink(String($0.dropFirst(5))) })
        #expect(edit.key != nil, "a new board is encrypted")

        var random = SeededGenerator(seed: 61)
        let image =
            Array("PLAINTEXT-OF-THE-IMAGE".utf8) + (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        try Data(image).write(to: URL(fileURLWithPath: path("image.png")))

        let put = try await InkwellProcess.running(["blob", "put", edit.description, path("image.png")])
        #expect(put.status == 0, "\(put.standardError)")
        let hex = put.standardOutput.trimmingCharacters(in: .newlines)
        #expect(hex.count == 64 && hex.allSatisfy(\.isHexDigit), "\(put.standardOutput)")

        // The view link reads it back, opened; the server's copy is sealed.
        let got = try await InkwellProcess.running(["blob", "get", view.description, hex, "--output", path("copy.png")])
        #expect(got.status == 0, "\(got.standardError)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path("copy.png")))) == image)
        let stored = try [UInt8](
            Data(contentsOf: scratch.url.appendingPathComponent("server/blobs/\(hex.prefix(2))/\(hex)"))
        )
        #expect(stored.firstRange(of: Array("PLAINTEXT-OF-THE-IMAGE".utf8)) == nil)

        // The store that made the board, named by room, with the bytes on standard output.
        let byRoom = try await InkwellProcess.running([
            "blob", "get", edit.room, hex, "--server", server.address, "--data", path("owner"),
        ])
        #expect(byRoom.status == 0, "\(byRoom.standardError)")
        #expect(Array(byRoom.standardOutput.utf8.prefix(22)) == Array("PLAINTEXT-OF-THE-IMAGE".utf8))

        // A view link may not upload (the client says so before sending anything); the board's storage has
        // room for two such images, not three.
        let refused = try await InkwellProcess.running(["blob", "put", view.description, path("image.png")])
        #expect(refused.status != 0 && refused.standardError.contains("only a view link"), "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty)
        let second = try await InkwellProcess.running(["blob", "put", edit.description, path("image.png")])
        #expect(second.status == 0, "sealed again under a fresh nonce: another blob")
        let full = try await InkwellProcess.running(["blob", "put", edit.description, path("image.png")])
        #expect(full.status != 0 && full.standardError.contains("image storage is full"), "\(full.standardError)")

        // Nothing under a name the board does not hold; a hash that is not one is refused before asking.
        let missing = try await InkwellProcess.running([
            "blob", "get", view.description, String(repeating: "0", count: 64), "--output", path("missing"),
        ])
        #expect(missing.status != 0 && missing.standardError.contains("no blob with this hash"))
        #expect(!FileManager.default.fileExists(atPath: path("missing")))
        let malformed = try await InkwellProcess.running(["blob", "get", view.description, "abc"])
        #expect(malformed.status != 0 && malformed.standardError.contains("64 hex digits"))
    }
}
