import Foundation
import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// Real clients against the real `inkwell serve` binary, over real sockets.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct EndToEndTests {
    static let room = "studio"

    /// A device whose date is an hour ahead learns the server's time at its welcome and stamps by it:
    /// the server takes its changes (it refuses stamps more than five minutes ahead), the other device
    /// applies them, both converge, and its changes stay visible.
    @Test func aDeviceWithAClockAnHourAheadStillSyncsAndConverges() async throws {
        let seed = seed("aDeviceWithAClockAnHourAheadStillSyncsAndConverges")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("server")
        try await withServer(data: serverData.url) { server in
            var ahead = endToEndConfiguration(seed: seed)
            ahead.wallClock = OffsetClock(offsetMilliseconds: 3_600_000)
            let early = try SyncClient(
                store: try Store.inMemory(),
                url: server.syncURL,
                rooms: [Self.room],
                configuration: ahead
            )
            let onTime = try SyncClient(
                store: try Store.inMemory(),
                url: server.syncURL,
                rooms: [Self.room],
                configuration: endToEndConfiguration(seed: seed &+ 1)
            )
            var recorded: [BoardChange] = []
            try await whileRunning([early, onTime]) {
                try await eventually("the early device is welcomed") { await early.statistics.connectionsOpened > 0 }
                for index in 0..<40 {
                    let client = index.isMultiple(of: 2) ? early : onTime
                    recorded.append(try await client.record(randomStroke(using: &random), room: Self.room))
                }
                try await early.waitUntilSynced(timeout: .seconds(60))
                try await onTime.waitUntilSynced(timeout: .seconds(60))
                try await eventually("both stores hold every change") {
                    try early.store.changes(room: Self.room, document: "main").count == recorded.count
                        && onTime.store.changes(room: Self.room, document: "main").count == recorded.count
                }
            }
            let lead = SyncProtocol.maximumStampLeadMilliseconds
            let now = SystemWallClock().millisecondsSince1970()
            #expect(recorded.allSatisfy { $0.stamp.wallMilliseconds <= now + lead }, "every stamp within the lead")
            let reference = referenceState(recorded)
            let earlyState = try boardState(early.store, room: Self.room)
            let onTimeState = try boardState(onTime.store, room: Self.room)
            #expect(earlyState.canonicalHash == reference.canonicalHash)
            #expect(onTimeState.canonicalHash == reference.canonicalHash)
            #expect(
                onTimeState.visibleStrokeCount == recorded.count,
                "every stroke, the early device's too, is visible"
            )
        }
    }

    @Test func twoClientsInOneRoomExchangeChangesAndConverge() async throws {
        let seed = seed("twoClientsInOneRoomExchangeChangesAndConverge")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("server")
        let clientData = try TemporaryDirectory("client")
        try await withServer(data: serverData.url) { server in
            let alice = try SyncClient(
                store: try Store.inMemory(),
                url: server.syncURL,
                rooms: [Self.room],
                configuration: endToEndConfiguration(seed: seed)
            )
            let bob = try SyncClient(
                store: try Store(path: clientData.url.appendingPathComponent("bob.sqlite").path),
                url: server.syncURL,
                rooms: [Self.room],
                configuration: endToEndConfiguration(seed: seed &+ 1)
            )
            let alicesFeed = alice.changes()
            var recorded: [String: [BoardChange]] = ["alice": [], "bob": []]
            try await whileRunning([alice, bob]) {
                // Alice draws a lot at once (several full packs); Bob draws slowly meanwhile.
                for index in 0..<1_200 {
                    recorded["alice"]!.append(
                        try await alice.record(randomStroke(count: 3, using: &random), room: Self.room)
                    )
                    if index.isMultiple(of: 40) {
                        recorded["bob"]!.append(try await bob.record(randomStroke(using: &random), room: Self.room))
                        try await Task.sleep(for: .milliseconds(5))
                    }
                }
                var total = recorded.values.map(\.count).reduce(0, +)
                try await eventually("both stores hold every change") {
                    try alice.store.changes(room: Self.room, document: "main").count == total
                        && bob.store.changes(room: Self.room, document: "main").count == total
                }
                // Then each edits the other's strokes.
                for change in recorded["alice"]!.shuffled(using: &random).prefix(30) {
                    let erase = BoardEdit(
                        board: "main",
                        operations: [.erase(StrokeID(change: change.id), [ParameterInterval(0, 0.5)])]
                    )
                    recorded["bob"]!.append(try await bob.record(erase, room: Self.room))
                }
                for change in recorded["bob"]!.prefix(10) {
                    let raise = BoardEdit(board: "main", operations: [.set(StrokeID(change: change.id), .zOrder(9))])
                    recorded["alice"]!.append(try await alice.record(raise, room: Self.room))
                }
                total = recorded.values.map(\.count).reduce(0, +)
                try await eventually("both stores hold the edits too") {
                    try alice.store.changes(room: Self.room, document: "main").count == total
                        && bob.store.changes(room: Self.room, document: "main").count == total
                }
                try await alice.waitUntilSynced(timeout: .seconds(60))
                try await bob.waitUntilSynced(timeout: .seconds(60))
                #expect(try alice.store.outboxSize().changes == 0)
                #expect(try bob.store.outboxSize().changes == 0)
            }
            let reference = referenceState(recorded.values.flatMap { $0 })
            let aliceState = try boardState(alice.store, room: Self.room)
            let bobState = try boardState(bob.store, room: Self.room)
            #expect(aliceState.canonicalHash == reference.canonicalHash)
            #expect(bobState.canonicalHash == reference.canonicalHash)
            #expect(aliceState.changeCount == reference.changeCount)
            try alice.store.checkInvariants()
            try bob.store.checkInvariants()

            var remote: Set<ChangeID> = []
            var local: Set<ChangeID> = []
            for await change in alicesFeed {
                if change.origin == .remote { remote.insert(change.change.id) } else { local.insert(change.change.id) }
            }
            #expect(remote == Set(recorded["bob"]!.map(\.id)), "Alice heard of each of Bob's changes as remote")
            #expect(local == Set(recorded["alice"]!.map(\.id)))
            let statistics = await alice.statistics
            print("Alice: \(statistics.packsPushed) packs pushed for \(recorded["alice"]!.count) changes")
            #expect(statistics.connectionsOpened == 1, "no rate limit or other trouble closed the connection")
            #expect(statistics.changesAcknowledged == recorded["alice"]!.count)
        }
    }

    @Test func editsMadeWhileTheServerIsDownSyncOnceItStarts() async throws {
        let seed = seed("editsMadeWhileTheServerIsDownSyncOnceItStarts")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("server")
        let clientData = try TemporaryDirectory("client")
        let port = try ServerProcess.freePort()
        let url = URL(string: "ws://127.0.0.1:\(port)/sync")!
        let offline = try SyncClient(
            store: try Store(path: clientData.url.appendingPathComponent("offline.sqlite").path),
            url: url,
            rooms: [Self.room],
            configuration: endToEndConfiguration(seed: seed)
        )
        var recorded: [BoardChange] = []
        try await whileRunning([offline]) {
            for _ in 0..<50 { recorded.append(try await offline.record(randomStroke(using: &random), room: Self.room)) }
            try await eventually("refused connection attempts") { await offline.statistics.connectionAttempts >= 3 }
            let waiting = await offline.currentProgress
            #expect(waiting.state != .synced)
            #expect(waiting.bytesToUpload == (try offline.store.outboxSize().bytes))
            #expect(try offline.store.outboxSize().changes == 50)

            try await withServer(data: serverData.url, port: port) { server in
                try await offline.waitUntilSynced(timeout: .seconds(60))
                #expect(try offline.store.outboxSize().changes == 0)
                #expect(
                    await offline.currentProgress == SyncProgress(state: .synced, bytesToUpload: 0, bytesToDownload: 0)
                )

                // A newcomer joins the room while running and gets all of it.
                let newcomer = try SyncClient(
                    store: try Store.inMemory(),
                    url: server.syncURL,
                    rooms: [],
                    configuration: endToEndConfiguration(seed: seed &+ 1)
                )
                try await whileRunning([newcomer]) {
                    try await newcomer.join(Self.room)
                    try await eventually("the newcomer holds every change") {
                        try newcomer.store.changes(room: Self.room, document: "main").count == recorded.count
                    }
                    try await newcomer.waitUntilSynced(timeout: .seconds(60))
                }
                #expect(
                    try boardState(newcomer.store, room: Self.room).canonicalHash
                        == referenceState(recorded).canonicalHash
                )
            }
        }
        #expect(try boardState(offline.store, room: Self.room).canonicalHash == referenceState(recorded).canonicalHash)
    }

    @Test func aRestartedClientResumesFromItsWatermark() async throws {
        let seed = seed("aRestartedClientResumesFromItsWatermark")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("server")
        let clientData = try TemporaryDirectory("client")
        let path = clientData.url.appendingPathComponent("reader.sqlite").path
        try await withServer(data: serverData.url) { server in
            let writer = try SyncClient(
                store: try Store.inMemory(),
                url: server.syncURL,
                rooms: [Self.room],
                configuration: endToEndConfiguration(seed: seed)
            )
            var recorded: [BoardChange] = []
            try await whileRunning([writer]) {
                for _ in 0..<300 {
                    recorded.append(try await writer.record(randomStroke(count: 60, using: &random), room: Self.room))
                }
                try await writer.waitUntilSynced(timeout: .seconds(60))
            }

            func read(expecting count: Int) async throws -> (SyncStatistics, UInt64) {
                let reader = try SyncClient(
                    store: try Store(path: path),
                    url: server.syncURL,
                    rooms: [Self.room],
                    configuration: endToEndConfiguration(seed: seed &+ UInt64(count))
                )
                try await whileRunning([reader]) {
                    try await eventually("the reader holds every change") {
                        try reader.store.changes(room: Self.room, document: "main").count == count
                    }
                    try await reader.waitUntilSynced(timeout: .seconds(60))
                }
                #expect(
                    try boardState(reader.store, room: Self.room).canonicalHash
                        == referenceState(recorded).canonicalHash
                )
                return (await reader.statistics, try reader.store.watermark(room: Self.room))
            }

            let (first, watermark) = try await read(expecting: 300)
            #expect(first.packsReceived >= 1 && watermark >= 1)
            #expect(try Store(path: path).watermark(room: Self.room) == watermark, "the watermark is on disk")

            // A stopped client stays stopped: the writer comes back as a new client on the same store.
            let writerAgain = try SyncClient(
                store: writer.store,
                url: server.syncURL,
                rooms: [Self.room],
                configuration: endToEndConfiguration(seed: seed &+ 2)
            )
            try await whileRunning([writerAgain]) {
                for _ in 0..<5 {
                    recorded.append(
                        try await writerAgain.record(randomStroke(count: 60, using: &random), room: Self.room)
                    )
                }
                try await writerAgain.waitUntilSynced(timeout: .seconds(60))
            }
            let (second, resumed) = try await read(expecting: 305)
            print("reader: \(first.packBytesReceived) pack bytes at first, \(second.packBytesReceived) on resuming")
            #expect(resumed > watermark)
            #expect(
                (1...5).contains(second.packsReceived),
                "only the packs after the watermark: \(second.packsReceived)"
            )
            #expect(
                second.packBytesReceived * 20 < first.packBytesReceived,
                "\(second.packBytesReceived) bytes on resuming, \(first.packBytesReceived) the first time"
            )
        }
    }

    @Test func presenceReachesTheOthersInTheRoom() async throws {
        let seed = seed("presenceReachesTheOthersInTheRoom")
        let serverData = try TemporaryDirectory("server")
        try await withServer(data: serverData.url) { server in
            let alice = try SyncClient(
                store: try Store.inMemory(),
                url: server.syncURL,
                rooms: [Self.room],
                configuration: endToEndConfiguration(seed: seed)
            )
            let bob = try SyncClient(
                store: try Store.inMemory(),
                url: server.syncURL,
                rooms: [Self.room],
                configuration: endToEndConfiguration(seed: seed &+ 1)
            )
            let bobHears = bob.presence()
            let aliceHears = alice.presence()
            let cursor = Presence(
                room: Self.room,
                device: alice.device,
                name: "Alice",
                colour: 0xFF00_00FF,
                cursor: (3, 4)
            )
            try await whileRunning([alice, bob]) {
                try await alice.waitUntilSynced(timeout: .seconds(60))
                try await bob.waitUntilSynced(timeout: .seconds(60))
                #expect(try await alice.sendPresence(cursor))
                let heard = try await withThrowingTaskGroup(of: Presence?.self) { group in
                    group.addTask { await bobHears.first { _ in true } }
                    group.addTask {
                        try await Task.sleep(for: .seconds(30))
                        return nil
                    }
                    defer { group.cancelAll() }
                    return try await group.next() ?? nil
                }
                #expect(heard == cursor)
            }
            var echoed: [Presence] = []
            for await presence in aliceHears { echoed.append(presence) }
            #expect(echoed.isEmpty, "a device does not hear its own presence")
        }
    }
}
