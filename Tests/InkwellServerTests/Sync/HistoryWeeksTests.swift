import Foundation
import GRDB
import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellServer

/// A board through weeks of use, in seconds: the retention is a second and a half, and a day is half a
/// second. Devices draw, erase, undo and clear; one leaves for good, one joins late, one draws offline and
/// comes back after much longer than the retention, and one is new at the end. Snapshots are sent and
/// checked along the way, and the server drops what they stand for. At the end every device shows the
/// same board, holds every change anyone made, and the server keeps no more than a bounded multiple of the
/// newest snapshot, however long the history.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct HistoryWeeksTests {
    static let room = "weeks"
    static let days = 10

    final class Device {
        let name: String
        let store: Store
        var client: SyncClient?
        var task: Task<Void, any Error>?
        var strokes: [ChangeID] = []

        init(_ name: String) throws {
            self.name = name
            store = try Store.inMemory()
        }
    }

    @Test func aBoardStaysBoundedThroughWeeksOfUseAndNothingIsLost() async throws {
        let seed = SeededGenerator.seedFromEnvironment()
        print("aBoardStaysBoundedThroughWeeksOfUseAndNothingIsLost: seed \(seed) (INKWELL_SEED=\(seed) replays)")
        var random = SeededGenerator(seed: seed)
        let server = try await RunningServer.start { configuration in
            configuration.retention = .milliseconds(1_500)
            configuration.compactionInterval = .milliseconds(100)
        }
        var recorded: [BoardChange] = []
        let devices = try ["alice", "bob", "carol", "traveller", "dave"].map(Device.init)
        let (alice, bob, carol, traveller, dave) = (devices[0], devices[1], devices[2], devices[3], devices[4])

        func start(_ device: Device, threshold: Int?) throws {
            var configuration = SyncClient.Configuration(
                backoff: Backoff(minimum: .milliseconds(20), maximum: .milliseconds(300)),
                randomSeed: random.next(),
                snapshotThreshold: threshold,
                snapshotDelay: .milliseconds(50)
            )
            configuration.maximumPushesPerSecond = 1_000
            let client = try SyncClient(
                store: device.store,
                url: URL(string: server.url)!,
                rooms: [Self.room],
                configuration: configuration
            )
            device.client = client
            device.task = Task { try await client.run() }
        }
        func stop(_ device: Device) async throws {
            await device.client?.stop()
            try await device.task?.value
            device.client = nil
        }
        func draw(_ device: Device, _ count: Int) async throws {
            // Offline devices record through a client that is not running: the change waits in the outbox.
            let client = try device.client ?? SyncClient(store: device.store, url: URL(string: server.url)!, rooms: [])
            for _ in 0..<count {
                let points = (0..<Int.random(in: 4...40, using: &random)).map { _ in
                    Point(random.uniform(-2_000...2_000), random.uniform(-2_000...2_000))
                }
                let edit = BoardEdit(
                    board: "main",
                    operations: [.addStroke(StrokeStyle(colour: .black, width: 2), points: points, pressures: nil)]
                )
                let change = try await client.record(edit, room: Self.room)
                recorded.append(change)
                device.strokes.append(change.id)
            }
            // Some erasing of anyone's strokes, and an undo of one of its own.
            for _ in 0..<count / 10 {
                guard let target = recorded.randomElement(using: &random) else { break }
                let erase = BoardEdit(
                    board: "main",
                    operations: [.erase(StrokeID(change: target.id), [ParameterInterval(0, 0.5)])]
                )
                recorded.append(try await client.record(erase, room: Self.room))
            }
            if let own = device.strokes.randomElement(using: &random) {
                recorded.append(
                    try await client.record(BoardEdit(board: "main", operations: [.undo(own)]), room: Self.room)
                )
            }
        }
        func settle(_ present: [Device]) async throws {
            for device in present { try await device.client!.waitUntilSynced(timeout: .seconds(60)) }
        }

        try start(alice, threshold: 600)
        try start(bob, threshold: 900)
        try start(traveller, threshold: nil)
        var present = [alice, bob, traveller]
        for day in 0..<Self.days {
            let began = ContinuousClock.now
            if day == 2 {
                try start(carol, threshold: 900)
                present.append(carol)
            }
            if day == 2 {
                // The traveller leaves, then draws offline.
                try await stop(traveller)
                present.removeAll { $0 === traveller }
                try await draw(traveller, 25)
            }
            if day == 6 {
                try await stop(bob)
                present.removeAll { $0 === bob }
            }
            for device in present { try await draw(device, device === alice ? 300 : 120) }
            if day == 5 {
                recorded.append(
                    try await alice.client!.record(BoardEdit(board: "main", operations: [.clear]), room: Self.room)
                )
            }
            try await settle(present)
            let left = .milliseconds(500) - (ContinuousClock.now - began)
            if left > .zero { try await Task.sleep(for: left) }
        }
        // Back after most of a week away (seven days, where the retention is three), and a new device.
        try start(traveller, threshold: nil)
        try start(dave, threshold: nil)
        present += [traveller, dave]
        try await settle(present)
        try await Task.sleep(for: .milliseconds(300))
        try await settle(present)

        let log = try server.packLog()
        let floor = try #require(try await log.floor(room: Self.room), "the server dropped packs")
        let kept = try await log.bytes(room: Self.room)
        let parts = try await log.snapshotParts(room: Self.room, snapshot: floor.snapshot)
        let snapshotBytes = UInt64(parts.reduce(0) { $0 + $1.bytes.count })
        let pushed = try await log.pool.read { db in
            try UInt64.fetchOne(
                db,
                sql: "SELECT end_offset FROM pack_extent WHERE room = ? ORDER BY position DESC LIMIT 1",
                arguments: [Self.room]
            ) ?? 0
        }
        print(
            "weeks: \(recorded.count) changes; pushed \(pushed) bytes, kept \(kept) (\(kept * 100 / max(pushed, 1)) %), "
                + "floor \(floor.position), newest snapshot \(snapshotBytes) bytes in \(parts.count) parts"
        )
        #expect(kept <= 3 * snapshotBytes, "the server keeps at most three times the newest snapshot")

        let reference = BoardState(board: "main").applying(recorded)
        for device in present {
            let stats = await device.client!.statistics
            #expect(stats.snapshotsRefused == 0, "\(device.name) refused no honest snapshot")
            for change in recorded {
                #expect(try device.store.change(change.id) != nil, "\(device.name) holds \(change.id)")
            }
        }
        #expect(await traveller.client!.statistics.rebases == 1, "the traveller starts from the snapshot")
        #expect(await dave.client!.statistics.rebases == 1, "the new device starts from the snapshot")
        for device in present {
            var state = BoardState(board: "main")
            for change in try device.store.changes(room: Self.room, document: "main") {
                state.apply(try change.decoded(as: BoardEdit.self))
            }
            #expect(state.canonicalHash == reference.canonicalHash, "\(device.name) shows the board")
        }
        for device in present { try await stop(device) }
        await server.stop()
    }
}

extension BoardState {
    fileprivate func applying(_ changes: [BoardChange]) -> BoardState {
        var state = self
        state.apply(contentsOf: changes)
        return state
    }
}
