import Foundation
import GRDB
import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting
import Testing

/// A replica without a server: edits apply and persist at once, updates come one per batch, and a
/// reopened replica starts from the snapshot written in the background.
@Suite struct ReplicaTests {
    static let room = "replica"
    static let types = DocumentTypes([BoardEdit.self])

    @Test func aLocalEditIsStoredAppliedAndAnnouncedBeforeTheCallReturns() async throws {
        var random = SeededGenerator(seed: seed("aLocalEditIsStoredAppliedAndAnnouncedBeforeTheCallReturns"))
        let store = try Store.inMemory()
        let replica = try await Replica(store: store, documentTypes: Self.types)
        let empty = try await replica.open(BoardState.self, room: Self.room, document: "main")
        #expect(empty.changeCount == 0)
        let updates = await replica.updates(of: BoardState.self, room: Self.room, document: "main")
        let change = try await replica.edit(randomStroke(using: &random), room: Self.room)

        let state = try #require(await replica.state(of: BoardState.self, room: Self.room, document: "main"))
        #expect(state.contains(change.id))
        #expect(try store.change(change.id) != nil, "stored in the same call")
        #expect(try replica.changesToUpload() == 1, "and queued for upload")
        var iterator = updates.makeAsyncIterator()
        let update = try #require(await iterator.next())
        #expect(update.origin == .local)
        #expect(update.changes == [change.id])
        #expect(update.state.canonicalHash == state.canonicalHash)
        await replica.stop()
    }

    @Test func aReopenedReplicaStartsFromItsBackgroundSnapshotAndHoldsTheSameBoard() async throws {
        var random = SeededGenerator(seed: seed("aReopenedReplicaStartsFromItsBackgroundSnapshotAndHoldsTheSameBoard"))
        let directory = try TemporaryDirectory("replica")
        let path = directory.url.appendingPathComponent("store.sqlite").path
        let first = try await Replica(
            store: try Store(path: path),
            documentTypes: Self.types,
            snapshots: SnapshotPolicy(tailThreshold: 20)
        )
        try await first.open(BoardState.self, room: Self.room, document: "main")
        for _ in 0..<60 { try await first.edit(randomStroke(using: &random), room: Self.room) }
        let expected = try #require(await first.state(of: BoardState.self, room: Self.room, document: "main"))
        let deadline = ContinuousClock.now + .seconds(30)
        while try first.store.latestSnapshot(room: Self.room, document: "main") == nil {
            try #require(ContinuousClock.now < deadline, "the snapshot writer writes a snapshot")
            try await Task.sleep(for: .milliseconds(20))
        }
        await first.stop()

        let store = try Store(path: path)
        let contents = try store.coldOpen(room: Self.room, document: "main")
        #expect(contents.snapshot != nil)
        #expect(contents.tail.count < 60, "a cold open replays only what lies outside the snapshot")
        let second = try await Replica(store: store, documentTypes: Self.types)
        let reopened = try await second.open(BoardState.self, room: Self.room, document: "main")
        #expect(reopened.canonicalHash == expected.canonicalHash)
        #expect(reopened.changeCount == 60)
        await second.stop()
    }

    /// Once a server acknowledged them, the edits a snapshot holds lose their rows; the reopened replica
    /// holds the same board from the snapshot and the few rows past it.
    @Test func aReplicaReopensTheSameBoardAfterCompaction() async throws {
        var random = SeededGenerator(seed: seed("aReplicaReopensTheSameBoardAfterCompaction"))
        let directory = try TemporaryDirectory("replica")
        let path = directory.url.appendingPathComponent("store.sqlite").path
        let policy = SnapshotPolicy(tailThreshold: 20, sweepInterval: .milliseconds(20))
        let first = try await Replica(store: try Store(path: path), documentTypes: Self.types, snapshots: policy)
        try await first.open(BoardState.self, room: Self.room, document: "main")
        for _ in 0..<50 { try await first.edit(randomStroke(using: &random), room: Self.room) }
        let expected = try #require(await first.state(of: BoardState.self, room: Self.room, document: "main"))
        try first.store.acknowledge(try first.store.outbox().map(\.id))
        let deadline = ContinuousClock.now + .seconds(30)
        while try first.store.latestSnapshot(room: Self.room, document: "main")?.cut.vector.changeCount ?? 0 < 40 {
            try #require(ContinuousClock.now < deadline, "the snapshot writer writes a snapshot")
            try await Task.sleep(for: .milliseconds(20))
        }
        await first.stop()

        let store = try Store(path: path)
        let rows = try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM change")
        }
        #expect(rows ?? 0 <= 10, "only the changes past the snapshot keep rows")
        #expect(try store.changes(room: Self.room, document: "main").count == 50)
        let second = try await Replica(store: store, documentTypes: Self.types)
        let reopened = try await second.open(BoardState.self, room: Self.room, document: "main")
        #expect(reopened.canonicalHash == expected.canonicalHash)
        #expect(reopened.changeCount == 50)
        await second.stop()
    }

    @Test func pausingAndHoldingShowAsPausedAndLocalEditsStillApply() async throws {
        var random = SeededGenerator(seed: seed("pausingAndHoldingShowAsPausedAndLocalEditsStillApply"))
        let replica = try await Replica(store: try Store.inMemory(), documentTypes: Self.types)
        try await replica.open(BoardState.self, room: Self.room, document: "main")
        await replica.hold(room: Self.room, document: "main")
        #expect(await replica.incomingMode(room: Self.room, document: "main") == .held)
        let change = try await replica.edit(randomStroke(using: &random), room: Self.room)
        let state = try #require(await replica.state(of: BoardState.self, room: Self.room, document: "main"))
        #expect(state.contains(change.id), "a held document still takes this device's own edits")
        #expect(await replica.arrivals(room: Self.room, document: "main").isEmpty)
        await replica.accept(room: Self.room, document: "main")
        #expect(await replica.incomingMode(room: Self.room, document: "main") == .live)
        await replica.stop()
    }
}
