import Foundation
import InkwellBoard
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellClient

/// Room snapshots through the real server: a device that holds a room's history sends one, the others
/// check it, the server drops the packs it stands for once every author present has, and a device that
/// comes later, or was away longer than the retention, starts from it and loses nothing.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct SnapshotEndToEndTests {
    static let room = "archive"

    /// A configuration that sends a snapshot once `threshold` changes lie outside the newest one, at once.
    static func configuration(seed: UInt64, threshold: Int?) -> SyncClient.Configuration {
        var configuration = endToEndConfiguration(seed: seed)
        configuration.snapshotThreshold = threshold
        configuration.snapshotDelay = .zero
        configuration.documentTypes = DocumentTypes(documents: [BoardState.self])
        return configuration
    }

    static func client(
        _ store: Store,
        _ server: ServerProcess,
        seed: UInt64,
        threshold: Int? = nil
    ) throws -> SyncClient {
        try SyncClient(
            store: store,
            url: server.syncURL,
            rooms: [room],
            configuration: configuration(seed: seed, threshold: threshold)
        )
    }

    static func serve(
        retentionSeconds: Double,
        _ body: (ServerProcess) async throws -> Void
    ) async throws {
        let data = try TemporaryDirectory("server")
        let server = try await ServerProcess.start(
            data: data.url,
            arguments: ["--retention-hours", "\(retentionSeconds / 3_600)", "--compaction-interval", "0.1"]
        )
        do {
            try await body(server)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    static func draw(
        _ client: SyncClient,
        _ count: Int,
        points: Int = 40,
        into recorded: inout [BoardChange],
        using random: inout SeededGenerator
    ) async throws {
        for _ in 0..<count {
            recorded.append(try await client.record(randomStroke(count: points, using: &random), room: room))
        }
    }

    /// Two present authors draw in turns for four seconds, longer than the tests' three-second retention,
    /// so an author who left holds no packs back.
    static func drawPastTheRetention(
        _ first: SyncClient,
        _ firstCount: Int,
        _ second: SyncClient,
        _ secondCount: Int,
        into recorded: inout [BoardChange],
        using random: inout SeededGenerator
    ) async throws {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(4) {
            try await draw(first, firstCount, into: &recorded, using: &random)
            try await draw(second, secondCount, into: &recorded, using: &random)
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Alice sends a snapshot; Bob checks it; the server drops the packs; Carol, new, is caught up from
    /// the snapshot and the packs after it, and every device shows the same board.
    @Test func aNewDeviceStartsFromTheSnapshotOnceThePacksAreDropped() async throws {
        let seed = seed("aNewDeviceStartsFromTheSnapshotOnceThePacksAreDropped")
        var random = SeededGenerator(seed: seed)
        try await Self.serve(retentionSeconds: 3_600) { server in
            let alice = try Self.client(try Store.inMemory(), server, seed: seed, threshold: 100)
            let bob = try Self.client(try Store.inMemory(), server, seed: seed &+ 1)
            var recorded: [BoardChange] = []
            try await whileRunning([alice, bob]) {
                try await Self.draw(bob, 30, into: &recorded, using: &random)
                try await bob.waitUntilSynced(timeout: .seconds(60))
                try await Self.draw(alice, 120, into: &recorded, using: &random)
                try await eventually("Alice sends a snapshot and Bob checks it") {
                    let uploaded = await alice.statistics.snapshotsUploaded
                    let checked = await bob.statistics.snapshotsChecked
                    return uploaded >= 1 && checked >= 1
                }
                // Nothing after the snapshot: its parts are the room's last packs, which a catch-up from
                // it leaves out and must still count as sent. (Dave's return, below, has packs after it.)
                try await alice.waitUntilSynced(timeout: .seconds(60))
                try await bob.waitUntilSynced(timeout: .seconds(60))
            }
            #expect(await bob.statistics.snapshotsRefused == 0)
            // Alice starts again: her store remembers the snapshot she sent, so she sends none too soon.
            let again = try Self.client(alice.store, server, seed: seed &+ 3, threshold: 100)
            try await whileRunning([again]) { try await again.waitUntilSynced(timeout: .seconds(60)) }
            #expect(await again.statistics.snapshotsUploaded == 0)
            #expect(try alice.store.heardSnapshot(room: Self.room)?.changes == 150)
            let reference = referenceState(recorded)
            // Compaction runs every 0.1 s; a new device rebases once it has.
            var carolStore = try Store.inMemory()
            try await eventually("a new device starts from the snapshot") {
                carolStore = try Store.inMemory()
                let carol = try Self.client(carolStore, server, seed: seed &+ 2)
                try await whileRunning([carol]) {
                    try await carol.waitUntilSynced(timeout: .seconds(60))
                }
                return await carol.statistics.rebases == 1
            }
            #expect(try boardState(carolStore, room: Self.room).canonicalHash == reference.canonicalHash)
            #expect(try boardState(alice.store, room: Self.room).canonicalHash == reference.canonicalHash)
            #expect(try boardState(bob.store, room: Self.room).canonicalHash == reference.canonicalHash)
            #expect(try carolStore.watermark(room: Self.room) >= 1)
            try carolStore.checkInvariants()
        }
    }

    /// Dave draws, leaves, and draws more offline. Longer than the retention later, after Alice and Bob
    /// drew on, sent and checked a snapshot, and the server dropped the packs Dave never received, he
    /// comes back: he starts from the snapshot, his offline strokes are pushed, and nothing of anyone's
    /// is lost.
    @Test func aDeviceAwayLongerThanTheRetentionKeepsWhatItMadeOffline() async throws {
        let seed = seed("aDeviceAwayLongerThanTheRetentionKeepsWhatItMadeOffline")
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryDirectory("dave")
        let davePath = folder.url.appendingPathComponent("dave.sqlite").path
        try await Self.serve(retentionSeconds: 3) { server in
            let alice = try Self.client(try Store.inMemory(), server, seed: seed, threshold: 150)
            let bob = try Self.client(try Store.inMemory(), server, seed: seed &+ 1)
            var recorded: [BoardChange] = []
            try await whileRunning([alice, bob]) {
                do {
                    let dave = try Self.client(try Store(path: davePath), server, seed: seed &+ 3)
                    try await whileRunning([dave]) {
                        try await Self.draw(dave, 20, into: &recorded, using: &random)
                        try await dave.waitUntilSynced(timeout: .seconds(60))
                    }
                }
                // Offline: queued, never pushed.
                do {
                    let dave = try Self.client(try Store(path: davePath), server, seed: seed &+ 4)
                    try await Self.draw(dave, 7, into: &recorded, using: &random)
                    await dave.stop()
                }
                // Alice and Bob go on, present, for longer than the retention.
                try await Self.drawPastTheRetention(alice, 40, bob, 5, into: &recorded, using: &random)
                try await eventually("a snapshot is sent and checked after Dave left") {
                    let uploaded = await alice.statistics.snapshotsUploaded
                    let checked = await bob.statistics.snapshotsChecked
                    return uploaded >= 1 && checked >= 1
                }
                try await alice.waitUntilSynced(timeout: .seconds(60))
                try await bob.waitUntilSynced(timeout: .seconds(60))
                // Present authors: keep drawing a little while compaction runs.
                try await Self.draw(bob, 2, into: &recorded, using: &random)
                try await Task.sleep(for: .milliseconds(500))
                let dave = try Self.client(try Store(path: davePath), server, seed: seed &+ 5)
                try await whileRunning([dave]) {
                    try await dave.waitUntilSynced(timeout: .seconds(60))
                    #expect(await dave.statistics.rebases == 1, "Dave starts from the snapshot")
                    #expect(await dave.statistics.snapshotsRefused == 0)
                    #expect(try dave.store.outboxSize().changes == 0, "Dave's offline strokes are pushed")
                }
                try await eventually("Alice and Bob hold Dave's offline strokes") {
                    try alice.store.changes(room: Self.room, document: "main").count == recorded.count
                        && bob.store.changes(room: Self.room, document: "main").count == recorded.count
                }
            }
            let reference = referenceState(recorded)
            let dave = try Store(path: davePath)
            for store in [alice.store, bob.store, dave] {
                #expect(try boardState(store, room: Self.room).canonicalHash == reference.canonicalHash)
            }
        }
    }

    /// A client's change that settles its own changes so far, as the page's undo stacks let it.
    static func settle(_ client: SyncClient) async throws -> BoardChange {
        let replica = try client.store.replica(for: room)
        let board = try boardState(client.store, room: room)
        let settle = try #require(board.settlement(of: replica, through: try client.store.lastSeq(of: replica)))
        return try await client.record(BoardEdit(board: "main", operations: [settle]), room: room)
    }

    /// Alice deletes most of what she drew and Bob half of what Dave drew before he left; both settle.
    /// Their snapshot leaves out what stopped mattering, the server keeps only that, and every device,
    /// a new one and Dave back after the retention with the deleted strokes still in his store, shows the
    /// same board.
    @Test func aSnapshotLeavesOutWhatStoppedMatteringAndEveryDeviceStillAgrees() async throws {
        let seed = seed("aSnapshotLeavesOutWhatStoppedMatteringAndEveryDeviceStillAgrees")
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryDirectory("dave")
        let davePath = folder.url.appendingPathComponent("dave.sqlite").path
        try await Self.serve(retentionSeconds: 3) { server in
            let alice = try Self.client(try Store.inMemory(), server, seed: seed, threshold: 100)
            let bob = try Self.client(try Store.inMemory(), server, seed: seed &+ 1)
            var recorded: [BoardChange] = []
            try await whileRunning([alice, bob]) {
                var daves: [StrokeID] = []
                do {
                    let dave = try Self.client(try Store(path: davePath), server, seed: seed &+ 3)
                    try await whileRunning([dave]) {
                        for _ in 0..<12 {
                            let drawn = try await dave.record(randomStroke(count: 30, using: &random), room: Self.room)
                            recorded.append(drawn)
                            daves.append(StrokeID(change: drawn.id))
                        }
                        try await dave.waitUntilSynced(timeout: .seconds(60))
                    }
                }
                try await bob.waitUntilSynced(timeout: .seconds(60))
                var alices: [StrokeID] = []
                for _ in 0..<150 {
                    let drawn = try await alice.record(randomStroke(count: 30, using: &random), room: Self.room)
                    recorded.append(drawn)
                    alices.append(StrokeID(change: drawn.id))
                }
                for first in stride(from: 0, to: 100, by: 10) {
                    let deletions = alices[first..<first + 10].map { BoardOperation.set($0, .deleted(true)) }
                    recorded.append(
                        try await alice.record(BoardEdit(board: "main", operations: deletions), room: Self.room)
                    )
                }
                try await bob.waitUntilSynced(timeout: .seconds(60))
                let bobDeletes = daves.prefix(6).map { BoardOperation.set($0, .deleted(true)) }
                recorded.append(try await bob.record(BoardEdit(board: "main", operations: bobDeletes), room: Self.room))
                recorded.append(try await Self.settle(alice))
                recorded.append(try await Self.settle(bob))
                // Present for longer than the retention, so Dave, away, holds nothing back.
                try await Self.drawPastTheRetention(alice, 10, bob, 2, into: &recorded, using: &random)
                try await eventually("Alice sends a snapshot that leaves out what stopped mattering, and Bob checks it")
                {
                    guard let heard = try bob.store.heardSnapshot(room: Self.room) else { return false }
                    return heard.held + 100 <= heard.changes
                }
                try await alice.waitUntilSynced(timeout: .seconds(60))
                try await bob.waitUntilSynced(timeout: .seconds(60))
                try await Self.draw(bob, 2, into: &recorded, using: &random)
                try await Task.sleep(for: .milliseconds(500))
                let dave = try Self.client(try Store(path: davePath), server, seed: seed &+ 5)
                try await whileRunning([dave]) {
                    try await dave.waitUntilSynced(timeout: .seconds(60))
                    #expect(await dave.statistics.rebases == 1, "Dave starts from the snapshot")
                    #expect(await dave.statistics.snapshotsRefused == 0, "Dave can check what it left out")
                }
                #expect(await bob.statistics.snapshotsRefused == 0)
            }
            var carolStore = try Store.inMemory()
            try await eventually("a new device starts from the snapshot") {
                carolStore = try Store.inMemory()
                let carol = try Self.client(carolStore, server, seed: seed &+ 6)
                try await whileRunning([carol]) { try await carol.waitUntilSynced(timeout: .seconds(60)) }
                return await carol.statistics.rebases == 1
            }
            let reference = referenceState(recorded)
            for store in [alice.store, bob.store, try Store(path: davePath), carolStore] {
                #expect(try boardState(store, room: Self.room).canonicalHash == reference.canonicalHash)
            }
            let held = try carolStore.changes(room: Self.room, document: "main").count
            print("lean snapshot: a new device holds \(held) of \(recorded.count) changes")
            #expect(held + 100 <= recorded.count, "the deleted strokes never reach a new device")
            try carolStore.checkInvariants()
            try await Self.expectTheNextSnapshotFrom(
                carolStore,
                checkedBy: [alice.store, bob.store],
                server,
                recorded: &recorded,
                seed: seed,
                using: &random
            )
        }
    }

    /// Carol started from a snapshot that left changes out. Her frontier stands for them, so her store
    /// folds what follows into its own snapshot, and she sends the room's next snapshot, which the others,
    /// who still hold the changes she never had, check.
    static func expectTheNextSnapshotFrom(
        _ carolStore: Store,
        checkedBy others: [Store],
        _ server: ServerProcess,
        recorded: inout [BoardChange],
        seed: UInt64,
        using random: inout SeededGenerator
    ) async throws {
        let heard = try #require(try carolStore.heardSnapshot(room: room))
        #expect(try carolStore.frontier(room: room).vector.changeCount >= heard.changes)
        let types = DocumentTypes(documents: [BoardState.self])
        #expect(
            try carolStore.snapshotIfNeeded(room: room, document: "main", policy: .init(tailThreshold: 1), types: types)
        )
        #expect(try carolStore.checkpoint().changeRows == 0)
        #expect(try boardState(carolStore, room: room).canonicalHash == referenceState(recorded).canonicalHash)
        let carol = try client(carolStore, server, seed: seed &+ 7, threshold: 100)
        let checkers = try others.enumerated().map { try client($1, server, seed: seed &+ 8 &+ UInt64($0)) }
        try await whileRunning([carol] + checkers) {
            // Enough new packs for the server to take another snapshot of the room.
            try await draw(carol, 150, points: 120, into: &recorded, using: &random)
            try await eventually("Carol sends the next snapshot and the others check it") {
                guard await carol.statistics.snapshotsUploaded >= 1 else { return false }
                for checker in checkers where await checker.statistics.snapshotsChecked == 0 { return false }
                return true
            }
            for checker in checkers { #expect(await checker.statistics.snapshotsRefused == 0) }
            try await carol.waitUntilSynced(timeout: .seconds(60))
        }
        let reference = referenceState(recorded)
        for store in others + [carolStore] {
            #expect(try boardState(store, room: room).canonicalHash == reference.canonicalHash)
        }
        try carolStore.checkInvariants()
    }

    /// Mallory, an editor, sends a snapshot that leaves out Bob's strokes and claims the room's head.
    /// Bob refuses it and never checks it, so the server drops nothing on its word: a new device gets
    /// every pack, Bob's too.
    @Test func aSnapshotThatLeavesOutAnAuthorIsRefusedAndDropsNothing() async throws {
        let seed = seed("aSnapshotThatLeavesOutAnAuthorIsRefusedAndDropsNothing")
        var random = SeededGenerator(seed: seed)
        try await Self.serve(retentionSeconds: 3_600) { server in
            let mallory = try Self.client(try Store.inMemory(), server, seed: seed)
            let bob = try Self.client(try Store.inMemory(), server, seed: seed &+ 1)
            var recorded: [BoardChange] = []
            try await whileRunning([mallory, bob]) {
                // Bob hears of the room before he draws: his own changes come after his connection started
                // tracking it, and only their acks tell him where they lie.
                try await Self.draw(mallory, 1, into: &recorded, using: &random)
                try await eventually("Bob holds Mallory's first stroke") {
                    (try? bob.store.frontier(room: Self.room).vector.changeCount) == 1
                }
                try await Self.draw(bob, 20, into: &recorded, using: &random)
                try await Self.draw(mallory, 300, points: 60, into: &recorded, using: &random)
                try await mallory.waitUntilSynced(timeout: .seconds(60))
                try await bob.waitUntilSynced(timeout: .seconds(60))
                let store = mallory.store
                let replica = try store.replica(for: Self.room)
                let key = try #require(try store.authorKey(of: replica))
                let own = try store.changes(room: Self.room, notIn: VersionVector()).filter { $0.id.replica == replica }
                var cut = Cut()
                for change in own { cut.include(change.id, change.stamp) }
                let head = try store.watermark(room: Self.room)
                let parts = PackCodec.encodeSnapshot(
                    room: Self.room,
                    position: head,
                    cut: cut,
                    changes: own.map(\.payload),
                    signedBy: key
                )
                await mallory.perform(parts.map { .send(.push(room: Self.room, pack: $0)) })
                try await eventually("Bob refuses the snapshot") { await bob.statistics.snapshotsRefused >= 1 }
                #expect(await bob.statistics.snapshotsChecked == 0)
            }
            // Time for several compaction passes.
            try await Task.sleep(for: .milliseconds(800))
            let carolStore = try Store.inMemory()
            let carol = try Self.client(carolStore, server, seed: seed &+ 2)
            try await whileRunning([carol]) { try await carol.waitUntilSynced(timeout: .seconds(60)) }
            #expect(await carol.statistics.rebases == 0, "nothing was dropped")
            #expect(try boardState(carolStore, room: Self.room).canonicalHash == referenceState(recorded).canonicalHash)
        }
    }
}
