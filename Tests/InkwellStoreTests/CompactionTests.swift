import Foundation
import GRDB
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellStore

/// Compaction: a snapshot the store writes takes the rows of the changes it holds, and every reader
/// gives the same answers as before.
@Suite struct CompactionTests {
    /// The change as the store files it, without the entities a snapshot does not keep.
    static func filed(_ changes: [StoredChange]) -> [StoredChange] { changes.map { $0.withEntities([]) } }

    static func rowCount(_ store: Store) throws -> Int {
        try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM change") ?? 0 }
    }

    @Test(arguments: StoreKind.allCases)
    func everyReaderAnswersAsWithoutCompactionOverRandomHistories(kind: StoreKind) throws {
        var random = SeededGenerator(seed: testSeed("everyReaderAnswersAsWithoutCompactionOverRandomHistories"))
        for _ in 0..<8 {
            let history = BoardHistory(using: &random)
            let compacted = try kind.open()
            let kept = try kind.open(configuration: .init(compaction: false))
            var held: [ChangeID: StoredChange] = [:]
            for batch in history.deliveries(using: &random) {
                let enqueue = Bool.random(using: &random)
                let results = try [compacted, kept].map { try $0.store.append(batch, enqueue: enqueue) }
                var seen = Set(held.keys)
                let new = batch.filter { seen.insert($0.id).inserted }
                #expect(
                    results[0]
                        == AppendResult(
                            inserted: new.map(\.id),
                            duplicates: batch.map(\.id).filter { id in !new.contains { $0.id == id } }
                        )
                )
                #expect(results[0] == results[1])
                for change in new { held[change.id] = change }
                for key in BoardHistory.documents where Int.random(in: 0..<3, using: &random) == 0 {
                    let policy = SnapshotPolicy(tailThreshold: Int.random(in: 1...20, using: &random))
                    let wrote = try [compacted, kept].map {
                        try $0.store.snapshotIfNeeded(room: key.room, document: key.document, policy: policy)
                    }
                    #expect(wrote[0] == wrote[1])
                }
                if Bool.random(using: &random) {
                    let queued = try compacted.store.outbox()
                    let acknowledged = queued.filter { _ in Bool.random(using: &random) }.map(\.id)
                    for opened in [compacted, kept] { try opened.store.acknowledge(acknowledged) }
                }
                try Self.expectSameAnswers(compacted.store, kept.store, held: Array(held.values))
            }
            for key in BoardHistory.documents {
                for opened in [compacted, kept] {
                    try opened.store.snapshotIfNeeded(
                        room: key.room,
                        document: key.document,
                        policy: .init(tailThreshold: 1)
                    )
                }
            }
            try Self.expectSameAnswers(compacted.store, kept.store, held: Array(held.values))
            #expect(try Self.rowCount(compacted.store) < Self.rowCount(kept.store))
            #expect(try Self.rowCount(kept.store) == held.count)
        }
    }

    static func expectSameAnswers(_ compacted: Store, _ kept: Store, held: [StoredChange]) throws {
        for store in [compacted, kept] { try store.checkInvariants() }
        for key in BoardHistory.documents {
            let expected = held.filter { $0.room == key.room && $0.document == key.document }
                .sorted { $0.position < $1.position }
            #expect(try filed(compacted.changes(room: key.room, document: key.document)) == filed(expected))
            #expect(try kept.changes(room: key.room, document: key.document) == expected)
            let opened = try coldOpenBoard(compacted, room: key.room, document: key.document)
            #expect(opened.canonicalEncoding() == (try board(key.document, of: expected)).canonicalEncoding())
            #expect(
                opened.canonicalEncoding()
                    == (try coldOpenBoard(kept, room: key.room, document: key.document)).canonicalEncoding()
            )
            #expect(
                try compacted.coldOpen(room: key.room, document: key.document)
                    == kept.coldOpen(room: key.room, document: key.document)
            )
        }
        for room in ["room", "elsewhere"] {
            let expected = held.filter { $0.room == room }.sorted { $0.position < $1.position }
            #expect(try compacted.roomChanges(room: room) == expected.map { try $0.decoded() })
            #expect(try compacted.frontier(room: room) == kept.frontier(room: room))
            let vector = try kept.frontier(room: room).vector
            #expect(
                try filed(compacted.changes(room: room, notIn: vector))
                    == filed(kept.changes(room: room, notIn: vector))
            )
        }
        for replica in [a, b, c] { #expect(try compacted.lastSeq(of: replica) == kept.lastSeq(of: replica)) }
        #expect(try compacted.latestStamp == kept.latestStamp)
        #expect(try compacted.outbox() == kept.outbox())
        for change in held { #expect(try compacted.change(change.id)?.withEntities([]) == change.withEntities([])) }
    }

    /// Appends A:1–`count` of board "board" and folds them into a snapshot.
    static func compactedStore(_ kind: StoreKind, count: UInt64 = 40, enqueue: Bool = false) throws -> OpenedStore {
        let opened = try kind.open()
        try opened.store.append((1...count).map { boardChange(a, $0) }, enqueue: enqueue)
        try #require(
            try opened.store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1))
        )
        return opened
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeReceivedAgainAfterCompactionIsKnownAsHeldAndNotStoredAgain(kind: StoreKind) throws {
        let opened = try Self.compactedStore(kind)
        let store = opened.store
        #expect(try Self.rowCount(store) == 0)
        let again = [boardChange(a, 7), boardChange(a, 40), boardChange(a, 41)]
        let result = try store.append(again)
        #expect(result == AppendResult(inserted: [again[2].id], duplicates: [again[0].id, again[1].id]))
        #expect(try Self.rowCount(store) == 1)
        #expect(try store.changes(room: "room", document: "board").map(\.id.seq) == Array(1...41))
        #expect(try store.change(again[0].id)?.payload == again[0].payload)
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func aCompactedIdClaimedForAnotherDocumentOrRoomIsAConflictingDuplicate(kind: StoreKind) throws {
        let opened = try Self.compactedStore(kind)
        let store = opened.store
        for claim in [boardChange(a, 7, board: "other"), boardChange(a, 7, room: "elsewhere")] {
            #expect(throws: StoreError.conflictingDuplicate(claim.id)) { try store.append([claim, boardChange(b, 1)]) }
        }
        #expect(try store.change(boardChange(b, 1).id) == nil, "the whole batch is refused")
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func changesInTheOutboxKeepTheirRowsUntilAcknowledged(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append((1...10).map { boardChange(b, $0) })
        try store.append((1...10).map { boardChange(a, $0) }, enqueue: true)
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        #expect(try Self.rowCount(store) == 10, "B's rows went; A's wait for their acknowledgement")
        #expect(try store.outbox().map(\.id.seq) == Array(1...10))
        #expect(try store.outboxSize().changes == 10)
        try store.acknowledge((1...4).map { boardChange(a, $0).id })
        #expect(try Self.rowCount(store) == 6)
        #expect(try store.outbox().map(\.id.seq) == Array(5...10))
        #expect(try store.changes(room: "room", document: "board").count == 20, "each change once")
        try store.checkInvariants()
        // Acknowledged before any snapshot: the row goes with the next one.
        try store.append([boardChange(a, 11)], enqueue: true)
        try store.acknowledge([boardChange(a, 11).id])
        #expect(try Self.rowCount(store) == 7)
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        #expect(try Self.rowCount(store) == 6)
        try store.acknowledge((5...10).map { boardChange(a, $0).id })
        #expect(try Self.rowCount(store) == 0)
        #expect(try store.outbox().isEmpty)
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedCompactionLeavesTheStoreAsItWas(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append((1...30).map { boardChange(a, $0) })
        try store.append((1...5).map { boardChange(b, $0) }, enqueue: true)
        let failing = "CREATE TRIGGER failing BEFORE DELETE ON change BEGIN SELECT RAISE(ABORT, 'injected'); END"
        try store.writer.write { try $0.execute(sql: failing) }
        #expect(throws: StoreError.self) {
            try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1))
        }
        #expect(try store.latestSnapshot(room: "room", document: "board") == nil, "no snapshot without its deletions")
        #expect(try Self.rowCount(store) == 35)
        #expect(
            try store.documentsWithDueTails(policy: .init(tailThreshold: 35)) == [
                DocumentKey(room: "room", document: "board")
            ]
        )
        try store.writer.write { try $0.execute(sql: "DROP TRIGGER failing") }
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        #expect(try Self.rowCount(store) == 5)

        try store.writer.write { try $0.execute(sql: failing) }
        #expect(throws: StoreError.self) { try store.acknowledge([boardChange(b, 1).id]) }
        #expect(try store.outbox().count == 5, "an acknowledgement stands or falls with its deletion")
        try store.writer.write { try $0.execute(sql: "DROP TRIGGER failing") }
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func theLastSeqAndStampOutliveTheRows(kind: StoreKind) throws {
        let opened = try Self.compactedStore(kind)
        let store = opened.store
        #expect(try Self.rowCount(store) == 0)
        #expect(try store.lastSeq(of: a) == 40)
        #expect(try store.latestStamp == boardChange(a, 40).stamp)
        #expect(throws: StoreError.stampNotMonotonic(boardChange(a, 41).id)) {
            try store.append([boardChange(a, 41, at: 1_000)])
        }
        try store.append([boardChange(a, 41)])
        #expect(try store.lastSeq(of: a) == 41)
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func roomChangesHoldsEveryChangeOnceAcrossSnapshotsAndRowsInTotalOrder(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        var all: [StoredChange] = []
        for (replica, board) in [(a, "board"), (b, "other"), (c, "third")] {
            all += (1...20).map { boardChange(replica, $0, board: board) }
        }
        // B's changes past a gap stay rows; A's last ones wait in the outbox.
        let gap = boardChange(b, 12, board: "other")
        try store.append(all.filter { $0.id != gap.id && !($0.id.replica == a && $0.id.seq > 15) })
        try store.append(all.filter { $0.id.replica == a && $0.id.seq > 15 }, enqueue: true)
        let elsewhere = (1...5).map { boardChange(ReplicaID(high: 0xD << 60, low: 4), $0, room: "elsewhere") }
        try store.append(elsewhere)
        #expect(try store.snapshotIfNeeded(room: "elsewhere", document: "board", policy: .init(tailThreshold: 1)))
        for board in ["board", "other"] {
            #expect(try store.snapshotIfNeeded(room: "room", document: board, policy: .init(tailThreshold: 1)))
        }
        let expected = all.filter { $0.id != gap.id }.sorted { $0.position < $1.position }
        #expect(try store.roomChanges(room: "room") == expected.map { try $0.decoded() })
        try store.append([gap])
        #expect(
            try store.roomChanges(room: "room") == all.sorted { $0.position < $1.position }.map { try $0.decoded() }
        )
        try store.checkInvariants()
    }

    /// A row filed under another type than its bytes name would come back from the snapshot filed
    /// otherwise: it keeps its row, and readers give it as the row has it.
    @Test(arguments: StoreKind.allCases)
    func aRowThatTheSnapshotWouldGiveBackOtherwiseIsKept(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let honest = boardChange(a, 1)
        let misfiled = boardChange(a, 2)
        let filed = StoredChange(
            id: misfiled.id,
            stamp: misfiled.stamp,
            room: misfiled.room,
            document: misfiled.document,
            type: "sketch",
            schemaVersion: misfiled.schemaVersion,
            payload: misfiled.payload
        )
        try store.append([honest, filed])
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        #expect(try store.read { db in try Int.fetchAll(db, sql: "SELECT seq FROM change") } == [2])
        #expect(try store.changes(room: "room", document: "board") == [honest.withEntities([]), filed])
        try store.checkInvariants()
    }

    /// A snapshot may become its changes' only copy: one the store could not read back is not written,
    /// and the rows stay.
    @Test(arguments: StoreKind.allCases)
    func aSnapshotTooLargeToReadBackIsNotWrittenAndTheRowsStay(kind: StoreKind) throws {
        let opened = try kind.open(configuration: .init(maximumValueBytes: 300))
        let store = opened.store
        try store.append((1...40).map { boardChange(a, $0) })
        #expect(throws: StoreError.self) {
            try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1))
        }
        #expect(try store.latestSnapshot(room: "room", document: "board") == nil)
        #expect(try Self.rowCount(store) == 40)
    }

    @Test func turningCompactionOnTakesTheRowsEarlierSnapshotsKept() throws {
        let opened = try StoreKind.onDisk.open(configuration: .init(compaction: false))
        try opened.store.append((1...30).map { boardChange(a, $0) })
        #expect(try opened.store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        #expect(try Self.rowCount(opened.store) == 30)
        let reopened = try opened.reopened()
        try reopened.store.append((31...40).map { boardChange(a, $0) })
        #expect(try reopened.store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        #expect(try Self.rowCount(reopened.store) == 0)
        #expect(try reopened.store.changes(room: "room", document: "board").map(\.id.seq) == Array(1...40))
        try reopened.store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func aRowInsideTheCutThatTheSnapshotLacksIsTakenInByTheNext(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let changes = (1...20).map { boardChange(a, $0) }
        try store.append(Array(changes.prefix(10)))
        // Written by an app, claiming A:10 without holding it.
        let partial = DocumentSnapshot(
            room: "room",
            document: "board",
            type: BoardEdit.documentType,
            schemaVersion: BoardEdit.schemaVersion,
            cut: Cut([a: (10, changes[9].stamp)]),
            changes: changes.prefix(9).map(\.payload)
        )
        try store.writeSnapshot(
            StoredSnapshot(
                room: "room",
                document: "board",
                cut: partial.cut,
                schemaVersion: 2,
                bytes: partial.encoded()
            )
        )
        try store.append(Array(changes.suffix(10)))
        // A:10 is a row inside the snapshot's cut that it lacks: the next snapshot takes it in.
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        #expect(try Self.rowCount(store) == 0)
        #expect(try Self.filed(store.changes(room: "room", document: "board")) == Self.filed(changes))
        #expect(
            try coldOpenBoard(store, room: "room", document: "board").canonicalEncoding()
                == board("board", of: changes).canonicalEncoding()
        )
    }

    /// The file's pages in use, after a checkpoint: what the store holds, not what SQLite keeps free.
    static func bytesInUse(_ store: Store) throws -> Int {
        try store.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            let pages =
                try Int.fetchOne(db, sql: "PRAGMA page_count")! - Int.fetchOne(db, sql: "PRAGMA freelist_count")!
            return pages * (try Int.fetchOne(db, sql: "PRAGMA page_size")!)
        }
    }

    @Test func compactionShrinksTheStore() throws {
        var random = SeededGenerator(seed: testSeed("compactionShrinksTheStore"))
        var stored: [Int] = []
        for compaction in [false, true] {
            let opened = try StoreKind.onDisk.open(configuration: .init(compaction: compaction))
            var clock = HybridLogicalClock()
            for batch in 0..<20 {
                let changes = (1...100 as ClosedRange<UInt64>).map { index in
                    let seq = UInt64(batch) * 100 + index
                    let points = (0..<30).map { _ in Point(random.uniform(0...4_000), random.uniform(0...4_000)) }
                    return StoredChange(
                        BoardChange(
                            id: ChangeID(replica: a, seq: seq),
                            stamp: clock.next(wallMilliseconds: 1_800_000_000_000 + seq),
                            payload: BoardEdit(
                                board: "board",
                                operations: [
                                    .addStroke(StrokeStyle(colour: .black, width: 2), points: points, pressures: nil)
                                ]
                            )
                        ),
                        room: "room"
                    )
                }
                try opened.store.append(changes)
                try opened.store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 500))
            }
            stored.append(try Self.bytesInUse(opened.store))
        }
        #expect(stored[1] * 3 < stored[0] * 2, "\(stored)")
    }
}
