import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellStore

/// A device's compaction by its documents' rules: snapshots leave out the changes that stopped mattering,
/// so the store follows the live board, and every reader still makes the same boards.
@Suite struct InertCompactionTests {
    static let (d, e) = (ReplicaID(high: 0xD << 60, low: 4), ReplicaID(high: 0xE << 60, low: 5))
    static let types = DocumentTypes(documents: [BoardState.self])

    /// Folds the board's whole tail into its snapshot, leaving out what stopped mattering.
    @discardableResult
    static func fold(_ store: Store) throws -> Bool {
        try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1), types: types)
    }

    static func heldCount(_ store: Store) throws -> Int {
        try ["room", "elsewhere"].map { try store.roomChanges(room: $0).count }.reduce(0, +)
    }

    @Test(arguments: StoreKind.allCases)
    func snapshotsThatLeaveOutInertChangesOpenToTheSameBoards(kind: StoreKind) throws {
        let seed = testSeed("snapshotsThatLeaveOutInertChangesOpenToTheSameBoards")
        var random = SeededGenerator(seed: seed)
        var leftOut = 0
        for _ in 0..<8 {
            let history = BoardHistory(using: &random, settling: true)
            let lean = try kind.open()
            let kept = try kind.open(configuration: .init(compaction: false))
            var held: [ChangeID: StoredChange] = [:]
            for batch in history.deliveries(using: &random) {
                for opened in [lean, kept] { try opened.store.append(batch) }
                for change in batch { held[change.id] = change }
                for key in BoardHistory.documents where Int.random(in: 0..<3, using: &random) == 0 {
                    let policy = SnapshotPolicy(tailThreshold: Int.random(in: 1...20, using: &random))
                    try lean.store.snapshotIfNeeded(
                        room: key.room,
                        document: key.document,
                        policy: policy,
                        types: Self.types
                    )
                    try kept.store.snapshotIfNeeded(room: key.room, document: key.document, policy: policy)
                }
                try Self.expectSameBoards(lean.store, kept.store, held: Array(held.values))
            }
            // One more change on each board, so that the last snapshots are due: they also take in, or
            // leave out again, the inert changes that came twice and wait as late rows.
            let last = [
                boardChange(Self.d, 1, at: 90_000, board: "board"), boardChange(Self.d, 2, at: 90_001, board: "other"),
                boardChange(Self.e, 1, at: 90_000, room: "elsewhere"),
            ]
            for opened in [lean, kept] { try opened.store.append(last) }
            for change in last { held[change.id] = change }
            for key in BoardHistory.documents {
                try lean.store.snapshotIfNeeded(
                    room: key.room,
                    document: key.document,
                    policy: .init(tailThreshold: 1),
                    types: Self.types
                )
            }
            try Self.expectSameBoards(lean.store, kept.store, held: Array(held.values))
            // Every change is inside its room's frontier now: none is left as a row.
            #expect(try CompactionTests.rowCount(lean.store) == 0)
            leftOut += held.count - (try Self.heldCount(lean.store))
        }
        // The histories undo, delete, clear and settle: much of them stops mattering.
        #expect(leftOut > 100, "seed \(seed)")
    }

    static func expectSameBoards(_ lean: Store, _ kept: Store, held: [StoredChange]) throws {
        try lean.checkInvariants()
        for key in BoardHistory.documents {
            let expected = held.filter { $0.room == key.room && $0.document == key.document }
            #expect(
                try coldOpenBoard(lean, room: key.room, document: key.document).canonicalHash
                    == board(key.document, of: expected).canonicalHash
            )
            #expect(
                try coldOpenBoard(kept, room: key.room, document: key.document).canonicalHash
                    == board(key.document, of: expected).canonicalHash
            )
        }
        for room in ["room", "elsewhere"] {
            #expect(try lean.frontier(room: room) == kept.frontier(room: room))
        }
        for replica in [a, b, c] { #expect(try lean.lastSeq(of: replica) == kept.lastSeq(of: replica)) }
        #expect(try lean.latestStamp == kept.latestStamp)
    }

    /// A change left out as inert that comes again is stored as a late row, applied at a cold open, and
    /// left out again by the next snapshot.
    @Test func anInertChangeThatComesAgainIsStoredUntilTheNextSnapshotLeavesItOut() throws {
        let store = try Store.inMemory()
        let drawn = boardChange(a, 1)
        let undo = boardChange(a, 2, operations: [.undo(drawn.id)])
        let settle = boardChange(a, 3, operations: [.settle(through: 2, inactive: [1])])
        let kept = boardChange(a, 4)
        try store.append([drawn, undo, settle, kept])
        #expect(
            try Self.fold(store)
        )
        #expect(try store.changes(room: "room", document: "board").map(\.id.seq) == [3, 4])
        #expect(try CompactionTests.rowCount(store) == 0)
        let expected = try board("board", of: [drawn, undo, settle, kept]).canonicalHash
        #expect(try coldOpenBoard(store, room: "room", document: "board").canonicalHash == expected)

        #expect(try store.append([drawn, kept]) == AppendResult(inserted: [drawn.id], duplicates: [kept.id]))
        try store.checkInvariants()
        #expect(try coldOpenBoard(store, room: "room", document: "board").canonicalHash == expected)
        #expect(
            try Self.fold(store)
                == false,
            "a late row is not a tail"
        )
        try store.append([boardChange(a, 5)])
        #expect(
            try Self.fold(store)
        )
        #expect(try CompactionTests.rowCount(store) == 0)
        #expect(try store.changes(room: "room", document: "board").map(\.id.seq) == [3, 4, 5])
        try store.checkInvariants()
    }

    /// This device's changes the outbox still holds are never left out: a room snapshot stands for what
    /// came through a position of the server's log, which they have not yet. Once acknowledged, their rows
    /// go (the snapshot holds them), and the next snapshot leaves out those that stopped mattering.
    @Test func thisDevicesChangesAreLeftOutOnlyOnceAcknowledged() throws {
        let store = try Store.inMemory()
        let drawn = boardChange(a, 1)
        let changes = [drawn, boardChange(a, 2, operations: [.undo(drawn.id)])]
        try store.append(changes, enqueue: true)
        try store.append([boardChange(a, 3, operations: [.settle(through: 2, inactive: [1])])], enqueue: true)
        #expect(try Self.fold(store))
        #expect(try CompactionTests.rowCount(store) == 3)
        #expect(try store.prunedThrough(room: "room") == VersionVector())
        try store.checkInvariants()
        try store.acknowledge(try store.outbox().map(\.id))
        #expect(try CompactionTests.rowCount(store) == 0)
        #expect(try store.changes(room: "room", document: "board").map(\.id.seq) == [1, 2, 3])
        try store.append([boardChange(a, 4)], enqueue: true)
        #expect(try Self.fold(store))
        #expect(try store.changes(room: "room", document: "board").map(\.id.seq) == [3, 4])
        #expect(try store.prunedThrough(room: "room") == VersionVector([a: 3]))
        try store.checkInvariants()
    }

    /// A snapshot that left out this device's changes was refused, so they go out again: one whose row went
    /// with compaction gets it back from the snapshot; one left out as inert is held nowhere.
    @Test func aCompactedChangeOfThisDeviceCanBeQueuedAgain() throws {
        let store = try Store.inMemory()
        let drawn = boardChange(a, 1)
        let kept = boardChange(a, 4)
        let changes = [
            drawn, boardChange(a, 2, operations: [.undo(drawn.id)]),
            boardChange(a, 3, operations: [.settle(through: 2, inactive: [1])]), kept,
        ]
        try store.append(changes, enqueue: true)
        try store.acknowledge(changes.map(\.id))
        #expect(try Self.fold(store))
        #expect(try CompactionTests.rowCount(store) == 0)
        try store.enqueue([kept.id])
        #expect(try store.outbox().map(\.id) == [kept.id])
        #expect(try store.outbox().first?.payload == kept.payload)
        try store.checkInvariants()
        #expect(
            try coldOpenBoard(store, room: "room", document: "board").canonicalHash
                == board("board", of: changes).canonicalHash
        )
        #expect(throws: StoreError.unknownChange(drawn.id)) { try store.enqueue([drawn.id]) }
        try store.acknowledge([kept.id])
        #expect(try CompactionTests.rowCount(store) == 0)
        try store.checkInvariants()
    }
}
