import Foundation
import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// Two replicas through a real server: remote changes reach the live document in batches; held
/// changes wait for acceptance; paused sending keeps changes queued until resumed.
@Suite struct ReplicaSyncTests {
    static let room = "replica-sync"
    static let types = DocumentTypes([BoardEdit.self])

    @Test func heldChangesWaitForAcceptanceAndPausedSendingWaitsForResume() async throws {
        let seed = seed("heldChangesWaitForAcceptanceAndPausedSendingWaitsForResume")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("server")
        try await withServer(data: serverData.url) { server in
            let alice = try await Replica(
                store: try Store.inMemory(),
                server: server.syncURL,
                documentTypes: Self.types,
                configuration: endToEndConfiguration(seed: seed)
            )
            let bob = try await Replica(
                store: try Store.inMemory(),
                server: server.syncURL,
                documentTypes: Self.types,
                configuration: endToEndConfiguration(seed: seed &+ 1)
            )
            try await alice.open(BoardState.self, room: Self.room, document: "main")
            try await bob.open(BoardState.self, room: Self.room, document: "main")
            let running = [Task { try await alice.run() }, Task { try await bob.run() }]
            defer { for task in running { task.cancel() } }
            try await alice.waitUntilSynced(timeout: .seconds(60))
            try await bob.waitUntilSynced(timeout: .seconds(60))

            // Live: Bob's strokes reach Alice's open board.
            let updates = await alice.updates(of: BoardState.self, room: Self.room, document: "main")
            var live: [BoardChange] = []
            for _ in 0..<3 { live.append(try await bob.edit(randomStroke(using: &random), room: Self.room)) }
            var seen: Set<ChangeID> = []
            for await update in updates where update.origin == .remote {
                seen.formUnion(update.changes)
                if seen.count == live.count { break }
            }
            #expect(seen == Set(live.map(\.id)))

            // Presence: Bob's cursor reaches Alice, never stored.
            let presence = alice.presence()
            let cursor = Presence(
                room: Self.room,
                device: bob.store.replica,
                name: "Bob",
                colour: 0xFF00_00FF,
                cursor: (3, 4)
            )
            try await eventually("Bob's presence is sent") { try await bob.sendPresence(cursor) }
            for await seenPresence in presence where seenPresence.device == bob.store.replica {
                #expect(seenPresence.name == "Bob" && seenPresence.cursor?.x == 3)
                break
            }

            // Held: stored, counted, kept from the board until accepted.
            await alice.hold(room: Self.room, document: "main")
            var held: [BoardChange] = []
            for _ in 0..<2 { held.append(try await bob.edit(randomStroke(using: &random), room: Self.room)) }
            try await eventually("Alice stores Bob's held changes") {
                try held.allSatisfy { try alice.store.change($0.id) != nil }
            }
            try await eventually("Alice counts them as arrived") {
                await alice.arrivals(room: Self.room, document: "main").count == held.count
            }
            let arrivals = await alice.arrivals(room: Self.room, document: "main")
            #expect(arrivals.changesByAuthor.keys.count == 1)
            var aliceState = try #require(await alice.state(of: BoardState.self, room: Self.room, document: "main"))
            #expect(held.allSatisfy { !aliceState.contains($0.id) }, "held changes stay off the live board")
            await alice.accept(room: Self.room, document: "main")
            aliceState = try #require(await alice.state(of: BoardState.self, room: Self.room, document: "main"))
            let bobState = try #require(await bob.state(of: BoardState.self, room: Self.room, document: "main"))
            #expect(aliceState.canonicalHash == bobState.canonicalHash)

            // Paused sending: Bob's next stroke stays queued until he resumes.
            await bob.pause(room: Self.room, document: "main", sending: true, receiving: false)
            let queued = try await bob.edit(randomStroke(using: &random), room: Self.room)
            try await Task.sleep(for: .milliseconds(500))
            #expect(try alice.store.change(queued.id) == nil, "nothing of a paused document is sent")
            #expect(try bob.changesToUpload() == 1)
            await bob.resume(room: Self.room, document: "main")
            try await eventually("Alice gets the stroke once Bob resumes") {
                await alice.state(of: BoardState.self, room: Self.room, document: "main")?.contains(queued.id) == true
            }
            try await bob.waitUntilSynced(timeout: .seconds(60))
            await alice.stop()
            await bob.stop()
            for task in running { _ = try? await task.value }
        }
    }
}
