import Foundation
import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import Testing

/// The client's shell without a server: recording, streams, reconnection attempts and stopping.
@Suite struct SyncClientOfflineTests {
    /// Nothing listens on port 1, so every connection attempt is refused at once.
    static let nowhere = URL(string: "ws://127.0.0.1:1/sync")!

    static func configuration(seed: UInt64) -> SyncClient.Configuration {
        SyncClient.Configuration(
            backoff: Backoff(minimum: .milliseconds(10), maximum: .milliseconds(40)),
            randomSeed: seed,
            wallClock: SteppingClock()
        )
    }

    @Test func editsRecordedOfflineWaitInTheOutbox() async throws {
        let seed = seed("editsRecordedOfflineWaitInTheOutbox")
        var random = SeededGenerator(seed: seed)
        let store = try Store.inMemory()
        let client = try SyncClient(
            store: store,
            url: Self.nowhere,
            rooms: ["room"],
            configuration: Self.configuration(seed: seed)
        )
        let changes = client.changes()
        var progress = client.progress().makeAsyncIterator()
        let first = await progress.next()
        #expect(first == SyncProgress.offline, "a subscriber first gets the progress at the time")
        var recorded: [BoardChange] = []
        for _ in 0..<3 { recorded.append(try await client.record(randomStroke(using: &random), room: "room")) }
        let outbox = try store.outboxSize()
        #expect(outbox.changes == 3)
        let waiting = SyncProgress(state: .offline, bytesToUpload: outbox.bytes, bytesToDownload: 0)
        #expect(await client.currentProgress == waiting)
        let latest = await progress.next()
        #expect(latest == waiting, "a slow subscriber gets the latest progress, not a backlog")
        await client.stop()
        let last = await progress.next()
        #expect(last == waiting, "stopping reports offline once more")
        let end = await progress.next()
        #expect(end == nil, "and finishes the stream")

        var seen: [ClientChange] = []
        for await change in changes { seen.append(change) }
        #expect(seen == recorded.map { ClientChange(room: "room", change: $0.encoded, origin: .local) })
    }

    @Test func requestsThatCannotBeCarriedAreRefused() async throws {
        let store = try Store.inMemory()
        #expect(throws: SyncClientError.invalidRoom) {
            _ = try SyncClient(store: store, url: Self.nowhere, rooms: ["no spaces"])
        }
        let client = try SyncClient(store: store, url: Self.nowhere, rooms: ["room"])
        await #expect(throws: SyncClientError.invalidRoom) {
            try await client.record(BoardEdit(board: "main", operations: [.clear]), room: "a/b")
        }
        await #expect(throws: SyncClientError.invalidRoom) { try await client.join("") }
        let stranger = Presence(room: "room", device: ReplicaID(high: 1, low: 1), name: "x", colour: 0)
        await #expect(throws: SyncClientError.presenceForAnotherDevice) { try await client.sendPresence(stranger) }
        let unjoined = Presence(room: "other", device: client.device, name: "x", colour: 0)
        await #expect(throws: SyncClientError.notJoined) { try await client.sendPresence(unjoined) }
        let offline = Presence(room: "room", device: client.device, name: "x", colour: 0)
        #expect(try await client.sendPresence(offline) == false, "offline presence is dropped, not queued")
        try await client.join("other")
        #expect(await client.rooms == ["room", "other"])
        await client.leave("room")
        #expect(await client.rooms == ["other"])
    }

    @Test func refusedConnectionsAreRetriedUntilStopped() async throws {
        let seed = seed("refusedConnectionsAreRetriedUntilStopped")
        let client = try SyncClient(
            store: try Store.inMemory(),
            url: Self.nowhere,
            rooms: ["room"],
            configuration: Self.configuration(seed: seed)
        )
        let progress = client.progress()
        async let states = progress.reduce(into: Set<SyncProgress.State>()) { $0.insert($1.state) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            let deadline = ContinuousClock.now + .seconds(20)
            while await client.statistics.connectionAttempts < 4 {
                try #require(ContinuousClock.now < deadline, "four attempts within the deadline")
                try await Task.sleep(for: .milliseconds(10))
            }
            await #expect(throws: SyncClientError.alreadyRunning) { try await client.run() }
            let stopping = ContinuousClock.now
            await client.stop()
            try await group.next()
            #expect(ContinuousClock.now - stopping < .seconds(10), "stop ends run promptly, not after a timeout")
        }
        #expect(await states == [.offline, .connecting])
        #expect(await client.statistics.connectionsOpened == 0)
        await #expect(throws: SyncClientError.stopped) { try await client.run() }
        await #expect(throws: SyncClientError.stopped) { try await client.waitUntilSynced(timeout: .seconds(1)) }
    }

    /// The backoff waits on the client's timekeeper: with time standing still the client tries once and
    /// waits, however long the machine takes; moved past the longest backoff, it tries again.
    @Test func theBackoffWaitsOnTheClientsTimekeeper() async throws {
        let seed = seed("theBackoffWaitsOnTheClientsTimekeeper")
        let timekeeper = ManualTimekeeper()
        var configuration = Self.configuration(seed: seed)
        configuration.timekeeper = timekeeper
        let client = try SyncClient(
            store: try Store.inMemory(),
            url: Self.nowhere,
            rooms: ["room"],
            configuration: configuration
        )
        let running = Task { try await client.run() }
        for attempt in 1...3 {
            let deadline = ContinuousClock.now + .seconds(20)
            while await client.statistics.connectionAttempts < attempt || timekeeper.sleepers == 0 {
                try #require(ContinuousClock.now < deadline, "attempt \(attempt), then a wait, within the deadline")
                try await Task.sleep(for: .milliseconds(10))
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(await client.statistics.connectionAttempts == attempt, "no attempt while time stands still")
            timekeeper.advance(by: configuration.backoff.maximum)
        }
        await client.stop()
        try await running.value
    }

    @Test func cancellingRunStopsTheClient() async throws {
        let seed = seed("cancellingRunStopsTheClient")
        let client = try SyncClient(
            store: try Store.inMemory(),
            url: Self.nowhere,
            rooms: ["room"],
            configuration: Self.configuration(seed: seed)
        )
        let changes = client.changes()
        let running = Task { try await client.run() }
        try await Task.sleep(for: .milliseconds(100))
        running.cancel()
        try await running.value
        for await _ in changes {}
        await #expect(throws: SyncClientError.stopped) { try await client.run() }
        let attempts = await client.statistics.connectionAttempts
        try await Task.sleep(for: .milliseconds(200))
        #expect(await client.statistics.connectionAttempts == attempts, "no attempts after the cancellation")
    }

    @Test func waitingForSyncTimesOut() async throws {
        let client = try SyncClient(store: try Store.inMemory(), url: Self.nowhere, rooms: [])
        let started = ContinuousClock.now
        await #expect(throws: SyncClientError.timedOut) {
            try await client.waitUntilSynced(timeout: .milliseconds(100))
        }
        #expect(ContinuousClock.now - started < .seconds(10), "not stuck until some later event")
    }
}
