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

/// `INKWELL_WEEKS_SCALE` multiplies what each device draws in a day, and the snapshot thresholds with it:
/// 1 in CI (about 6,600 changes); 150 makes about a million. The time limit grows with it.
private let weeksScale = max(1, Int(ProcessInfo.processInfo.environment["INKWELL_WEEKS_SCALE"] ?? "") ?? 1)

/// A board through weeks of use, in seconds: the retention is a second and a half, and a day is half a
/// second. Devices draw, erase, delete, undo, clear and settle as the page does; one leaves for good, one
/// joins late, one draws offline and comes back after much longer than the retention, and one is new at
/// the end. Snapshots are sent and checked along the way, leaving out what stopped mattering, and the
/// server drops what they stand for. At the end every device shows the same board and holds every change
/// that still matters, and the server keeps no more than a bounded multiple of the live board: the
/// changes that still matter, packed as a snapshot packs them.
@Suite(.serialized, .timeLimit(.minutes(5 * weeksScale)))
struct HistoryWeeksTests {
    static let room = "weeks"
    static let days = 10
    static let scale = weeksScale
    static let types = DocumentTypes(documents: [BoardState.self])

    final class Device {
        let name: String
        let store: Store
        var client: SyncClient?
        var task: Task<Void, any Error>?
        var strokes: [ChangeID] = []
        /// Its own changes applied: what its settles are worked out from (only its own changes are undone
        /// or settled by it), without reading the whole board back from its store each day.
        var own = BoardState(board: "main")

        init(_ name: String) throws {
            self.name = name
            store = try Store.inMemory()
        }
    }

    @Test func aBoardStaysBoundedThroughWeeksOfUseAndNothingIsLost() async throws {
        let seed = SeededGenerator.seedFromEnvironment()
        print(
            "aBoardStaysBoundedThroughWeeksOfUseAndNothingIsLost: seed \(seed) (INKWELL_SEED=\(seed) replays), "
                + "scale \(Self.scale)"
        )
        var random = SeededGenerator(seed: seed)
        let server = try await RunningServer.start(store: .sqlite) { configuration in
            configuration.retention = .milliseconds(1_500)
            configuration.compactionInterval = .milliseconds(100)
            // The clients push up to 1,000 packs a second (below): the server takes them.
            configuration.limits.packsPerSecond = 2_000
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
            configuration.documentTypes = Self.types
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
            let drawnFrom = recorded.endIndex
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
            // Erasing and deleting anyone's strokes, and an undo of one of its own.
            for _ in 0..<count / 3 {
                guard let target = recorded.randomElement(using: &random) else { break }
                let stroke = StrokeID(change: target.id)
                let operation: BoardOperation =
                    Bool.random(using: &random)
                    ? .erase(stroke, [ParameterInterval(0, 0.5)]) : .set(stroke, .deleted(true))
                recorded.append(
                    try await client.record(BoardEdit(board: "main", operations: [operation]), room: Self.room)
                )
            }
            if let own = device.strokes.randomElement(using: &random) {
                recorded.append(
                    try await client.record(BoardEdit(board: "main", operations: [.undo(own)]), room: Self.room)
                )
            }
            // Settles all but its last ten changes, as the page does once they leave its undo stacks.
            let replica = try device.store.replica(for: Self.room)
            device.own.apply(contentsOf: recorded[drawnFrom...].filter { $0.id.replica == replica })
            let last = try device.store.lastSeq(of: replica)
            if last > 10, let settle = device.own.settlement(of: replica, through: last - 10) {
                let change = try await client.record(BoardEdit(board: "main", operations: [settle]), room: Self.room)
                recorded.append(change)
                device.own.apply(change)
            }
        }
        func settle(_ present: [Device]) async throws {
            for device in present { try await device.client!.waitUntilSynced(timeout: .seconds(60 * Self.scale)) }
        }
        // Each device's store compacts as a replica's snapshot writer does, leaving out what stopped mattering.
        func compact(_ devices: [Device]) throws {
            for device in devices {
                try device.store.snapshotIfNeeded(
                    room: Self.room,
                    document: "main",
                    policy: .init(tailThreshold: 1),
                    types: Self.types
                )
            }
        }

        try start(alice, threshold: 600 * Self.scale)
        try start(bob, threshold: 900 * Self.scale)
        try start(traveller, threshold: nil)
        var present = [alice, bob, traveller]
        for day in 0..<Self.days {
            let began = ContinuousClock.now
            if day == 2 {
                try start(carol, threshold: 900 * Self.scale)
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
            for device in present { try await draw(device, (device === alice ? 300 : 120) * Self.scale) }
            if day == 5 {
                recorded.append(
                    try await alice.client!.record(BoardEdit(board: "main", operations: [.clear]), room: Self.room)
                )
            }
            let drawn = ContinuousClock.now
            try await settle(present)
            let synced = ContinuousClock.now
            try compact(devices)
            print(
                "weeks: day \(day), \(recorded.count) changes: drawn in \(drawn - began), synced in \(synced - drawn), compacted in \(ContinuousClock.now - synced)"
            )
            let left = .milliseconds(500) - (ContinuousClock.now - began)
            if left > .zero { try await Task.sleep(for: left) }
        }
        // Back after most of a week away (seven days, where the retention is three), and a new device.
        try start(traveller, threshold: nil)
        try start(dave, threshold: nil)
        present += [traveller, dave]
        let back = ContinuousClock.now
        try await settle(present)
        try await Task.sleep(for: .milliseconds(300))
        try await settle(present)
        try compact(devices)
        print("weeks: the traveller back and a new device, synced and compacted in \(ContinuousClock.now - back)")

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
        // The live board: the changes that still matter at the end, packed as a snapshot packs them.
        let checked = ContinuousClock.now
        let reference = BoardState(board: "main").applying(recorded)
        var everything = Cut()
        for change in recorded { everything.include(change.id, change.stamp) }
        let inert = Set(reference.inertChanges(among: recorded, through: everything.vector))
        let live = recorded.filter { !inert.contains($0.id) }
        let liveBytes = PackCodec.encodeSnapshot(
            room: Self.room,
            position: 1,
            cut: everything,
            changes: live.map { ChangeCodec.encode($0) },
            signedBy: try AuthorKey(rawRepresentation: [UInt8](repeating: 7, count: 32))
        ).reduce(0) { $0 + UInt64($1.count) }
        print(
            "weeks: \(recorded.count) changes, \(live.count) still matter (\(liveBytes) bytes packed); pushed "
                + "\(pushed) bytes, kept \(kept) (\(kept * 100 / max(pushed, 1)) %, \(kept * 100 / max(liveBytes, 1)) % of "
                + "the live board), floor \(floor.position), newest snapshot \(snapshotBytes) bytes in \(parts.count) parts"
        )
        #expect(kept <= 3 * liveBytes, "the server keeps at most three times the live board")
        #expect(snapshotBytes * 2 < pushed / 2, "the snapshot leaves out much of the history")

        // Each present device's store follows the live board too: it compacts by the board's rule, so what
        // it holds beyond the live board is what had not yet stopped mattering when it last compacted. (Bob,
        // gone since day 6, holds what mattered then.)
        for device in devices {
            let held = try device.store.changes(room: Self.room, notIn: VersionVector()).count
            let rows = try device.store.checkpoint().changeRows
            print("weeks: \(device.name) holds \(held) changes (\(rows) as rows), the live board \(live.count)")
            if present.contains(where: { $0 === device }) {
                #expect(held <= 2 * live.count, "\(device.name)'s store stays within twice the live board")
            }
            try device.store.checkInvariants()
        }
        for device in present {
            let stats = await device.client!.statistics
            #expect(stats.snapshotsRefused == 0, "\(device.name) refused no honest snapshot")
            // One read of the store: a change looked up alone inside a snapshot reads the whole snapshot.
            let held = Set(try device.store.changes(room: Self.room, notIn: VersionVector()).map(\.id))
            let missing = live.filter { !held.contains($0.id) }
            #expect(
                missing.isEmpty,
                "\(device.name) lacks \(missing.count) changes that still matter, such as \(missing.prefix(3).map(\.id))"
            )
        }
        #expect(await traveller.client!.statistics.rebases == 1, "the traveller starts from the snapshot")
        #expect(await dave.client!.statistics.rebases == 1, "the new device starts from the snapshot")
        // A cold open of each present device's store (read it, build the board), against a store that kept
        // every change as it came, as every device's did before compaction.
        let unbounded = try Store.inMemory()
        _ = try unbounded.append(recorded.map { StoredChange($0, room: Self.room) })
        for device in present + [nil] {
            let store = device?.store ?? unbounded
            let began = ContinuousClock.now
            var state = BoardState(board: "main")
            state.apply(
                contentsOf: try store.changes(room: Self.room, document: "main").map {
                    try $0.decoded(as: BoardEdit.self)
                }
            )
            let opened = ContinuousClock.now - began
            let name = device?.name ?? "a store of every change"
            print("weeks: \(name): cold open \(opened), store \(try store.checkpoint().usedBytes) bytes")
            #expect(state.canonicalHash == reference.canonicalHash, "\(name) shows the board")
        }
        print("weeks: checked in \(ContinuousClock.now - checked)")
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
