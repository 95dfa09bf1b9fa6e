import Foundation
import GRDB
import InkwellSync
import InkwellTesting
import Testing

@testable import InkwellStore

/// The age rule: a tail shorter than the threshold is folded in once it has waited, and the writer's
/// sweep finds it though no commit comes to wake it. Time is the store's injected clock.
@Suite struct SnapshotAgeTests {
    static let policy = SnapshotPolicy(tailThreshold: 1_000, maximumAge: .seconds(600), minimumAgedTail: 32)

    static func store(_ kind: StoreKind, _ clock: ManualClock) throws -> OpenedStore {
        try kind.open(configuration: .init(now: { clock.now }))
    }

    static func changes(_ replica: ReplicaID, _ seqs: ClosedRange<UInt64>, board: String = "board") -> [StoredChange] {
        seqs.map { boardChange(replica, $0, board: board) }
    }

    @Test(arguments: StoreKind.allCases)
    func aQuietTailIsFoldedInOnceItHasAgedAndIsNotTiny(kind: StoreKind) throws {
        let clock = ManualClock()
        let opened = try Self.store(kind, clock)
        let store = opened.store
        try store.append(Self.changes(a, 1...40))
        #expect(try !store.snapshotIfNeeded(room: "room", document: "board", policy: Self.policy))
        clock.advance(by: .seconds(599))
        #expect(try !store.snapshotIfNeeded(room: "room", document: "board", policy: Self.policy))
        clock.advance(by: .seconds(1))
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: Self.policy))
        #expect(try store.latestSnapshot(room: "room", document: "board")?.cut.vector == VersionVector([a: 40]))

        // Dated from the snapshot on: a tail below the minimum waits however old it is.
        try store.append(Self.changes(a, 41...60))
        clock.advance(by: .seconds(3_600))
        #expect(try !store.snapshotIfNeeded(room: "room", document: "board", policy: Self.policy))
        #expect(try store.documentsWithDueTails(policy: Self.policy).isEmpty)
        try store.append(Self.changes(a, 61...72))
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: Self.policy))
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func theSweepWakesQuietDocumentsAndOnlyThoseDue(kind: StoreKind) throws {
        let clock = ManualClock()
        let opened = try Self.store(kind, clock)
        let store = opened.store
        let writer = SnapshotWriter(store: store, policy: Self.policy)
        try store.append(Self.changes(a, 1...40, board: "quiet"))
        // Past a gap: counted, but no snapshot can take them yet.
        try store.append(Self.changes(b, 2...50, board: "gapped"))
        clock.advance(by: .seconds(540))
        try store.append(Self.changes(c, 1...40, board: "fresh"))
        clock.advance(by: .seconds(60))
        let due = try store.documentsWithDueTails(policy: Self.policy).map(\.document)
        #expect(due == ["gapped", "quiet"])
        #expect(try writer.sweep().map(\.document) == ["quiet"])
        #expect(try store.latestSnapshot(room: "room", document: "fresh") == nil)
        #expect(try store.documentsWithDueTails(policy: Self.policy).map(\.document) == ["gapped"])
        clock.advance(by: .seconds(540))
        #expect(try writer.sweep().map(\.document) == ["fresh"])
        try store.append([boardChange(b, 1, board: "gapped")])
        #expect(
            try writer.sweep().map(\.document) == ["gapped"],
            "the gap filled: its tail is as old as its first change"
        )
        #expect(try store.documentsWithDueTails(policy: Self.policy).isEmpty)
        try store.checkInvariants()
    }

    @Test func theRunningWriterSweepsAQuietDocumentNoCommitWakes() async throws {
        let clock = ManualClock()
        let opened = try Self.store(.onDisk, clock)
        let store = opened.store
        try store.append(Self.changes(a, 1...40))
        var policy = Self.policy
        policy.sweepInterval = .milliseconds(20)
        let writer = SnapshotWriter(store: store, policy: policy)
        let task = Task { await writer.run() }
        defer { task.cancel() }
        try await Task.sleep(for: .milliseconds(100))
        #expect(try store.latestSnapshot(room: "room", document: "board") == nil, "not yet old")
        clock.advance(by: .seconds(600))
        let deadline = ContinuousClock.now + .seconds(10)
        while try store.latestSnapshot(room: "room", document: "board") == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try store.latestSnapshot(room: "room", document: "board")?.cut.vector == VersionVector([a: 40]))
    }

    /// A store written before tails were dated has them dated 0: the first sweep looks at each once.
    @Test func aStoreFromBeforeCompactionFoldsItsOldTailsAtTheFirstSweep() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.file)
        try StoreSchema.migrator.migrate(queue, upTo: "v5")
        try queue.write { db in
            for change in Self.changes(a, 1...40) {
                try db.execute(
                    sql: """
                        INSERT INTO change (replica, seq, stamp, room, document, schema_version, payload, entities, type)
                        VALUES (?, ?, ?, 'room', 'board', ?, ?, x'', 'board')
                        """,
                    arguments: [
                        SQLValues.replica(a), Int64(change.id.seq), SQLValues.stamp(change.stamp),
                        Int64(change.schemaVersion), Data(change.payload),
                    ]
                )
            }
            try db.execute(
                sql: "INSERT INTO room_frontier (room, replica, seq, stamp) VALUES ('room', ?, 40, ?)",
                arguments: [SQLValues.replica(a), SQLValues.stamp(boardChange(a, 40).stamp)]
            )
        }
        try queue.close()
        let store = try Store(path: directory.file)
        #expect(try SnapshotWriter(store: store, policy: Self.policy).sweep().map(\.document) == ["board"])
        #expect(try store.changes(room: "room", document: "board").map(\.id.seq) == Array(1...40))
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM change") } == 0)
        try store.checkInvariants()
    }

    /// The architecture page states the policy's defaults in words; a new default must change them there
    /// too (STYLE 21).
    @Test func theArchitecturePageStatesThePolicysDefaults() throws {
        #expect(
            SnapshotPolicy()
                == SnapshotPolicy(
                    tailThreshold: 1_000,
                    maximumAge: .seconds(600),
                    minimumAgedTail: 32,
                    sweepInterval: .seconds(60)
                )
        )
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let prose = page.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for phrase in [
            "when a document has 1,000 changes inside its room's frontier",
            "a shorter tail of at least 32 changes has waited 10 minutes", "sweeps once a minute",
            "Below 32 changes",
        ] {
            #expect(prose.contains(phrase), "\(phrase)")
        }
    }
}
