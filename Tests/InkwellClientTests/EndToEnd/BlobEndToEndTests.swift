import Foundation
import GRDB
import InkwellClient
import InkwellStore
import InkwellTesting
import InkwellWire
import Testing

/// Blobs between real clients and the real `inkwell serve`, started without open rooms: sealed in an
/// encrypted room before they leave the device, checked and opened when they come back.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BlobEndToEndTests {
    static let room = "Bl0bRoomZt0aLw9PxYbN2m"

    /// A recognisable image: a marker repeated through random bytes, so the plaintext is easy to look for.
    static func image(using random: inout SeededGenerator) -> [UInt8] {
        let marker = Array("INKWELL-PLAIN-IMAGE-".utf8)
        var bytes: [UInt8] = []
        for _ in 0..<2_000 {
            bytes += marker
            bytes += (0..<30).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        return bytes
    }

    /// Makes an encrypted board on `server` as its owner's device does: its first connection registers the
    /// room. Returns the board's credentials and the owner's client (not running).
    static func makeBoard(
        on server: ServerProcess,
        seed: UInt64,
        random: inout SeededGenerator
    ) async throws -> (RoomCredentials, owner: SyncClient) {
        let made = RoomCredentials.minted(key: RoomKey.generate(using: &random))
        let store = try Store.inMemory()
        try store.setCredentials(made, for: room)
        let owner = try SyncClient(
            store: store,
            url: server.syncURL,
            rooms: [room],
            configuration: endToEndConfiguration(seed: seed)
        )
        var rights: Rights?
        try await whileRunning([owner]) { rights = try await owner.waitForAccess(room: room, timeout: .seconds(20)) }
        #expect(rights == .admin)
        return (made, owner)
    }

    /// A client of a store holding `credentials` for the board (none: a stranger's).
    static func client(_ credentials: RoomCredentials?, of server: ServerProcess) throws -> SyncClient {
        let store = try Store.inMemory()
        if let credentials { try store.setCredentials(credentials, for: room) }
        return try SyncClient(store: store, url: server.syncURL, rooms: [room])
    }

    @Test func aSealedBlobGoesUpAndComesBackOpenedAndTheServerHoldsOnlyCiphertext() async throws {
        let seed = seed("aSealedBlobGoesUpAndComesBackOpenedAndTheServerHoldsOnlyCiphertext")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("server")
        try await withServer(data: serverData.url, openRooms: false) { server in
            let (made, ownerClient) = try await Self.makeBoard(on: server, seed: seed, random: &random)
            func client(_ credentials: RoomCredentials?) throws -> SyncClient {
                try Self.client(credentials, of: server)
            }
            let editor = try client(.from(link: made.edit!, key: made.key))
            let viewer = try client(.from(link: made.view!, key: made.key))

            let image = Self.image(using: &random)
            let hash = try await editor.uploadBlob(image, room: Self.room)
            #expect(try await editor.uploadBlob(image, room: Self.room) != hash, "a fresh nonce each time")
            #expect(try await viewer.downloadBlob(hash, room: Self.room) == image)
            #expect(try await ownerClient.downloadBlob(hash, room: Self.room) == image)

            // On the server's disk: sealed bytes named by their hash, with no trace of the image.
            let file = serverData.url.appendingPathComponent("blobs/\(hash.hex.prefix(2))/\(hash.hex)")
            let stored = [UInt8](try Data(contentsOf: file))
            #expect(stored.count == image.count + 28, "nonce and tag")
            #expect(SyncClient.blobName(of: stored) == hash)
            #expect(stored.firstRange(of: Array("INKWELL-PLAIN-IMAGE-".utf8)) == nil)
            #expect(stored.firstRange(of: Array(image.prefix(64))) == nil)
            #expect(try BlobSeal.open(stored, room: Self.room, key: made.key!) == image)

            // The server counted it against the room.
            let log = try DatabaseQueue(path: serverData.url.appendingPathComponent("packs.sqlite").path)
            let recorded = try await log.read { db in
                try Int.fetchAll(db, sql: "SELECT size FROM room_blob WHERE room = ?", arguments: [Self.room])
            }
            #expect(recorded.sorted() == [image.count + 28, image.count + 28])
        }
    }

    @Test func eachLinkGetsWhatItsRightsAllowAndAWrongKeyOrAlteredBlobIsAClearError() async throws {
        let seed = seed("eachLinkGetsWhatItsRightsAllowAndAWrongKeyOrAlteredBlobIsAClearError")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("server")
        try await withServer(data: serverData.url, openRooms: false) { server in
            let (made, ownerClient) = try await Self.makeBoard(on: server, seed: seed, random: &random)
            func client(_ credentials: RoomCredentials?) throws -> SyncClient {
                try Self.client(credentials, of: server)
            }
            let image = Self.image(using: &random)
            let hash = try await ownerClient.uploadBlob(image, room: Self.room)

            // A view link reads and may not upload; nothing leaves the device.
            let viewer = try client(.from(link: made.view!, key: made.key))
            await #expect(throws: SyncClientError.viewOnly) { try await viewer.uploadBlob(image, room: Self.room) }

            // No link: the server asks for one.
            let stranger = try client(nil)
            let unauthorized = await #expect(throws: BlobError.self) {
                try await stranger.downloadBlob(hash, room: Self.room)
            }
            #expect(unauthorized?.code == .refused && unauthorized?.status == 401)

            // A blob the room does not hold.
            let missing = await #expect(throws: BlobError.self) {
                try await viewer.downloadBlob(SyncClient.blobName(of: [1, 2, 3]), room: Self.room)
            }
            #expect(missing?.status == 404 && missing?.message == "this board holds no blob with this hash")

            // The right capability with another key: the bytes are the ones named, but they do not open.
            let wrongKey = try client(.from(link: made.view!, key: RoomKey.generate(using: &random)))
            let unopened = await #expect(throws: BlobError.self) {
                try await wrongKey.downloadBlob(hash, room: Self.room)
            }
            #expect(unopened?.code == .cannotOpen)

            // Sealed for another room and uploaded here as they are (by a device without the key): the hash
            // checks out, the seal does not.
            let keyless = try client(.from(link: made.edit!, key: nil))
            let moved = try await keyless.uploadBlob(
                BlobSeal.seal(image, room: "AnotherRoom", key: made.key!),
                room: Self.room
            )
            let misplaced = await #expect(throws: BlobError.self) {
                try await viewer.downloadBlob(moved, room: Self.room)
            }
            #expect(misplaced?.code == .cannotOpen)

            // Bytes altered on the server's disk: refused before they are opened.
            let file = serverData.url.appendingPathComponent("blobs/\(hash.hex.prefix(2))/\(hash.hex)")
            var stored = [UInt8](try Data(contentsOf: file))
            stored[stored.count / 2] ^= 0x01
            try FileManager.default.removeItem(at: file)
            try Data(stored).write(to: file)
            let altered = await #expect(throws: BlobError.self) { try await viewer.downloadBlob(hash, room: Self.room) }
            #expect(altered?.code == .hashMismatch)

            // A client that takes smaller blobs cuts the answer off.
            let smallStore = try Store.inMemory()
            try smallStore.setCredentials(.from(link: made.view!, key: made.key), for: Self.room)
            let small = try SyncClient(
                store: smallStore,
                url: server.syncURL,
                rooms: [Self.room],
                configuration: SyncClient.Configuration(maximumBlobBytes: 1_000)
            )
            let cut = await #expect(throws: BlobError.self) { try await small.downloadBlob(moved, room: Self.room) }
            #expect(cut?.code == .tooLarge)
        }
    }

    /// An open room (a server with open rooms) needs no link and seals nothing.
    @Test func anOpenRoomsBlobsArePlain() async throws {
        let serverData = try TemporaryDirectory("server")
        try await withServer(data: serverData.url, openRooms: true) { server in
            let client = try SyncClient(store: try Store.inMemory(), url: server.syncURL, rooms: ["open-room"])
            let bytes = Array("a plain image".utf8)
            let hash = try await client.uploadBlob(bytes, room: "open-room")
            #expect(hash == SyncClient.blobName(of: bytes))
            #expect(try await client.downloadBlob(hash, room: "open-room") == bytes)
        }
    }
}
