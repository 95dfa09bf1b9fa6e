import Foundation
import GRDB
import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// Capabilities between real clients and the real `inkwell serve`, started without open rooms.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct AccessEndToEndTests {
    static let room = "Kq3Zt0aLw9PxYbN2mR7sVc"

    /// The device that made a board registers it and edits; an edit link edits; a view link reads live
    /// and may not edit; a name nobody registered is refused; a replaced link stops working while the
    /// others go on, and the holder of the new link edits again.
    @Test func linksGiveTheirRightsAndARotatedLinkStopsWorking() async throws {
        let seed = seed("linksGiveTheirRightsAndARotatedLinkStopsWorking")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("server")
        try await withServer(data: serverData.url, openRooms: false) { server in
            let owner = try Store.inMemory()
            let made = RoomCredentials.minted(key: nil)
            try owner.setCredentials(made, for: Self.room)
            let editor = try Store.inMemory()
            try editor.setCredentials(.from(link: made.edit!, key: nil), for: Self.room)
            let viewer = try Store.inMemory()
            try viewer.setCredentials(.from(link: made.view!, key: nil), for: Self.room)
            let stranger = try Store.inMemory()
            let clients = try [owner, editor, viewer, stranger].enumerated().map { index, store in
                try SyncClient(
                    store: store,
                    url: server.syncURL,
                    rooms: [index == 3 ? "NoSuchRoom0000000000000" : Self.room],
                    configuration: endToEndConfiguration(seed: seed &+ UInt64(index))
                )
            }
            let (ownerClient, editorClient, viewerClient, strangerClient) = (
                clients[0], clients[1], clients[2], clients[3]
            )
            try await whileRunning(clients) {
                #expect(try await ownerClient.waitForAccess(room: Self.room, timeout: .seconds(20)) == .admin)
                #expect(try await editorClient.waitForAccess(room: Self.room, timeout: .seconds(20)) == .edit)
                #expect(try await viewerClient.waitForAccess(room: Self.room, timeout: .seconds(20)) == .view)
                // Unknown: refused, asked for again later, never granted.
                await #expect(throws: SyncClientError.timedOut) {
                    try await strangerClient.waitForAccess(room: "NoSuchRoom0000000000000", timeout: .seconds(2))
                }
                #expect(
                    await strangerClient.refusalCode(room: "NoSuchRoom0000000000000") == ErrorCode.noSuchRoom.rawValue
                )

                var recorded: [BoardChange] = []
                recorded.append(try await ownerClient.record(randomStroke(using: &random), room: Self.room))
                recorded.append(try await editorClient.record(randomStroke(using: &random), room: Self.room))
                await #expect(throws: SyncClientError.viewOnly) {
                    _ = try await viewerClient.record(randomStroke(using: &random), room: Self.room)
                }
                for client in [ownerClient, editorClient] { try await client.waitUntilSynced(timeout: .seconds(60)) }
                try await eventually("the view link reads every change live") {
                    try viewer.changes(room: Self.room, document: "main").count == recorded.count
                }

                // The owner replaces the edit link: the editor's connection is closed, and its old link
                // no longer opens the board.
                let refusals = editorClient.accessEvents()
                let rotated = try await ownerClient.rotate(room: Self.room, edit: true, view: false)
                #expect(rotated.edit != made.edit && rotated.view == made.view)
                #expect(try owner.credentials(room: Self.room)?.edit == rotated.edit, "the new link is kept")
                var refused = false
                for await event in refusals {
                    if case .refused(Self.room, ErrorCode.notAllowed.rawValue, _) = event {
                        refused = true
                        break
                    }
                }
                #expect(refused)
                let waiting = try await editorClient.record(randomStroke(using: &random), room: Self.room)
                recorded.append(try await ownerClient.record(randomStroke(using: &random), room: Self.room))
                try await ownerClient.waitUntilSynced(timeout: .seconds(60))
                try await Task.sleep(for: .milliseconds(500))
                #expect(
                    try !owner.changes(room: Self.room, document: "main").contains { $0.id == waiting.id },
                    "a change made with a replaced link is not taken"
                )
                #expect(try editor.outbox(limit: 10).map(\.id) == [waiting.id], "and it is kept, not lost")

                // Given the new link, the editor's kept change goes through.
                try await editorClient.setCredentials(.from(link: rotated.edit!, key: nil), for: Self.room)
                #expect(try await editorClient.waitForAccess(room: Self.room, timeout: .seconds(20)) == .edit)
                recorded.append(waiting)
                try await editorClient.waitUntilSynced(timeout: .seconds(60))
                try await eventually("everyone holds every change") {
                    try [owner, editor, viewer].allSatisfy { store in
                        try store.changes(room: Self.room, document: "main").count == recorded.count
                    }
                }
            }
            let log = try DatabaseQueue(path: serverData.url.appendingPathComponent("packs.sqlite").path)
            let watermarks = try await log.read { db in
                try String.fetchAll(db, sql: "SELECT DISTINCT room FROM device_watermark")
            }
            #expect(!watermarks.contains("NoSuchRoom0000000000000"), "a refused subscription leaves no watermark")
        }
    }

    /// An encrypted board: the server stores only sealed packs, every device holding the key converges,
    /// and a device whose link carries the right capability but another key, or no key, applies nothing
    /// of it; what such a device pushes (sealed with its key, or plain) is refused by the others.
    @Test func anEncryptedBoardIsSealedOnTheServerAndOpensOnlyWithItsKey() async throws {
        let seed = seed("anEncryptedBoardIsSealedOnTheServerAndOpensOnlyWithItsKey")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("server")
        try await withServer(data: serverData.url, openRooms: false) { server in
            let made = RoomCredentials.minted(key: RoomKey.generate(using: &random))
            let owner = try Store.inMemory()
            try owner.setCredentials(made, for: Self.room)
            let friend = try Store.inMemory()
            try friend.setCredentials(.from(link: made.edit!, key: made.key), for: Self.room)
            let wrongKey = try Store.inMemory()
            try wrongKey.setCredentials(.from(link: made.edit!, key: RoomKey.generate(using: &random)), for: Self.room)
            let noKey = try Store.inMemory()
            try noKey.setCredentials(.from(link: made.edit!, key: nil), for: Self.room)
            let stores = [owner, friend, wrongKey, noKey]
            let clients = try stores.enumerated().map { index, store in
                try SyncClient(
                    store: store,
                    url: server.syncURL,
                    rooms: [Self.room],
                    configuration: endToEndConfiguration(seed: seed &+ UInt64(index))
                )
            }
            var honest: [BoardChange] = []
            try await whileRunning(clients) {
                for client in clients { _ = try await client.waitForAccess(room: Self.room, timeout: .seconds(20)) }
                for index in 0..<6 {
                    honest.append(try await clients[index % 2].record(randomStroke(using: &random), room: Self.room))
                }
                let strangers = [
                    try await clients[2].record(randomStroke(using: &random), room: Self.room),
                    try await clients[3].record(randomStroke(using: &random), room: Self.room),
                ]
                for client in clients { try await client.waitUntilSynced(timeout: .seconds(60)) }
                try await eventually("the key holders hold every honest change") {
                    try [owner, friend].allSatisfy { store in
                        try store.changes(room: Self.room, document: "main").count == honest.count
                    }
                }
                try await eventually("the others' packs were refused, not applied") {
                    let ownerRefused = await clients[0].statistics.packsRefused
                    let wrongKeyRefused = await clients[2].statistics.packsRefused
                    return ownerRefused >= 2 && wrongKeyRefused >= 1
                }
                for store in [owner, friend] {
                    let ids = Set(try store.changes(room: Self.room, document: "main").map(\.id))
                    #expect(ids == Set(honest.map(\.id)), "no change of another key, or of none, is applied")
                    #expect(strangers.allSatisfy { !ids.contains($0.id) })
                }
                #expect(try wrongKey.changes(room: Self.room, document: "main").map(\.id) == [strangers[0].id])
            }
            // What the server stored: every pack of the room sealed, except the keyless device's plain one.
            let log = try DatabaseQueue(path: serverData.url.appendingPathComponent("packs.sqlite").path)
            let packs = try await log.read { db in
                try Data.fetchAll(db, sql: "SELECT bytes FROM pack WHERE room = ?", arguments: [Self.room]).map {
                    [UInt8]($0)
                }
            }
            let sealed = packs.filter { bytes in
                (try? PackCodec.decode(bytes, room: Self.room)) == nil
                    && (try? PackCodec.decode(bytes, room: Self.room, key: made.key)) != nil
            }
            #expect(packs.count >= 7)
            #expect(sealed.count == packs.count - 1 - 1, "all but the keyless device's plain pack and the wrong key's")
        }
    }
}
