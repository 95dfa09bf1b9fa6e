import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellWire
import Testing

@Suite struct SnapshotPolicyTests {
    /// Real board changes, encoded as the store holds them: strokes on board "board" of room "room".
    static func boardChange(_ replica: ReplicaID, _ seq: UInt64, board: String = "board") -> StoredChange {
        let stroke = BoardChange(
            id: ChangeID(replica: replica, seq: seq),
            stamp: Stamp(wallMilliseconds: 1_000 + seq * 10 + replica.low % 10),
            payload: BoardEdit(
                board: BoardID(board),
                operations: [
                    .addStroke(
                        StrokeStyle(colour: .black, width: 2),
                        points: [Point(Double(seq), 0), Point(Double(seq), 9)],
                        pressures: nil
                    )
                ]
            )
        )
        return StoredChange(
            id: stroke.id,
            stamp: stroke.stamp,
            room: "room",
            document: board,
            schemaVersion: BoardEdit.schemaVersion,
            payload: ChangeCodec.encode(stroke)
        )
    }

    static func board(_ changes: [StoredChange]) throws -> BoardState {
        var board = BoardState(board: "board")
        for change in changes { board.apply(try ChangeCodec.decode(change.payload, as: BoardEdit.self)) }
        return board
    }

    @Test(arguments: StoreKind.allCases)
    func aGrownTailIsFoldedIntoANewSnapshotAndColdOpenStaysExact(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let first = (1...30 as ClosedRange<UInt64>).map { Self.boardChange(a, $0) }
        try store.append(first)
        #expect(try !store.snapshotIfNeeded(room: "room", document: "board", policy: SnapshotPolicy(tailThreshold: 31)))
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: SnapshotPolicy(tailThreshold: 30)))

        let later = (31...35 as ClosedRange<UInt64>).map { Self.boardChange(a, $0) } + [Self.boardChange(a, 40)]
        try store.append(later)
        #expect(try !store.snapshotIfNeeded(room: "room", document: "board", policy: SnapshotPolicy(tailThreshold: 10)))
        let contents = try store.coldOpen(room: "room", document: "board")
        #expect(contents.snapshot?.cut.vector == VersionVector([a: 30]))
        #expect(contents.tail.map(\.id.seq) == [31, 32, 33, 34, 35, 40])

        let restored = try DocumentSnapshot(decoding: contents.snapshot!.bytes).restore(
            as: BoardState.self,
            adding: contents.tail.map(\.payload)
        )
        #expect(restored.canonicalEncoding() == (try Self.board(first + later)).canonicalEncoding())
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func changesPastAGapStayInTheTail(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append(
            (1...5 as ClosedRange<UInt64>).map { Self.boardChange(a, $0) }
                + (8...20 as ClosedRange<UInt64>).map { Self.boardChange(a, $0) }
        )
        #expect(
            try !store.snapshotIfNeeded(room: "room", document: "board", policy: SnapshotPolicy(tailThreshold: 6)),
            "only A:1–5 are inside the frontier"
        )
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: SnapshotPolicy(tailThreshold: 5)))
        let contents = try store.coldOpen(room: "room", document: "board")
        #expect(contents.snapshot?.cut.vector == VersionVector([a: 5]))
        #expect(contents.tail.count == 13)
    }

    @Test func theBackgroundWriterSnapshotsBoardsWhoseTailGrew() async throws {
        let opened = try StoreKind.onDisk.open()
        let store = opened.store
        let writer = SnapshotWriter(store: store, policy: SnapshotPolicy(tailThreshold: 20))
        let task = Task { await writer.run() }
        defer { task.cancel() }
        // Let the writer subscribe before the commits it must see.
        try await Task.sleep(for: .milliseconds(100))
        for seq in 1...40 as ClosedRange<UInt64> { try store.append([Self.boardChange(b, seq)]) }
        let deadline = ContinuousClock.now + .seconds(10)
        while try store.latestSnapshot(room: "room", document: "board") == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let snapshot = try #require(try store.latestSnapshot(room: "room", document: "board"))
        #expect(snapshot.cut.vector[b] >= 20)
    }
}
