import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@Suite struct ConversionTests {
    @Test func boardChangeSurvivesTheStoreAndBack() throws {
        var random = SeededGenerator(seed: seed("boardChangeSurvivesTheStoreAndBack"))
        let store = try Store.inMemory()
        let replica = ReplicaID(using: &random)
        var clock = HybridLogicalClock()
        for seq in 1...50 {
            let change = BoardChange(
                id: ChangeID(replica: replica, seq: UInt64(seq)),
                stamp: clock.next(wallMilliseconds: 1_800_000_000_000 + UInt64(seq)),
                payload: randomStroke(
                    board: "page-\(seq % 3)",
                    count: Int.random(in: 1...40, using: &random),
                    using: &random
                )
            )
            let stored = StoredChange(change, room: "room")
            #expect(stored.id == change.id)
            #expect(stored.stamp == change.stamp)
            #expect(stored.document == change.payload.board.rawValue)
            #expect(stored.schemaVersion == WireSchema.current)
            #expect(stored.payload == ChangeCodec.encode(change))
            #expect(try stored.decoded(as: BoardEdit.self) == change)
            try store.append([stored])
            let readBack = try #require(try store.change(change.id))
            #expect(try readBack.decoded(as: BoardEdit.self) == change)
            #expect(readBack.entities == [StrokeID(change: change.id).description])
        }
    }

    @Test func entitiesNameEveryStrokeTouchedOnce() {
        let replica = ReplicaID(high: 1, low: 2)
        let other = StrokeID(change: ChangeID(replica: ReplicaID(high: 3, low: 4), seq: 9), index: 2)
        let id = ChangeID(replica: replica, seq: 5)
        let style = StrokeStyle(colour: .black, width: 1)
        let change = BoardChange(
            id: id,
            stamp: Stamp(wallMilliseconds: 10),
            payload: BoardEdit(
                board: "main",
                operations: [
                    .addStroke(style, points: [Point(0, 0)], pressures: nil),
                    .erase(other, [ParameterInterval(0, 1)]),
                    .undo(ChangeID(replica: replica, seq: 1)),
                    .addStroke(style, points: [Point(1, 1)], pressures: nil),
                    .set(other, .zOrder(3)),
                    .clear,
                    .appendPoints(StrokeID(change: id, index: 0), points: [Point(2, 2)], pressures: nil),
                    .unknown(kind: 99, bytes: [1, 2]),
                ]
            )
        )
        #expect(
            change.entities == [
                StrokeID(change: id, index: 0).description, other.description,
                StrokeID(change: id, index: 3).description,
            ]
        )
    }

    @Test func metadataThatDisagreesWithThePayloadIsRefused() throws {
        let replica = ReplicaID(high: 7, low: 7)
        let change = BoardChange(
            id: ChangeID(replica: replica, seq: 1),
            stamp: Stamp(wallMilliseconds: 1),
            payload: BoardEdit(board: "main", operations: [.clear])
        )
        let encoded = ChangeCodec.encode(change)
        func stored(seq: UInt64 = 1, stamp: Stamp = Stamp(wallMilliseconds: 1), board: String = "main") -> StoredChange
        {
            StoredChange(
                id: ChangeID(replica: replica, seq: seq),
                stamp: stamp,
                room: "room",
                document: board,
                schemaVersion: 1,
                payload: encoded
            )
        }
        #expect(try stored().decoded(as: BoardEdit.self) == change)
        #expect(throws: WireError.invalidField("change.id")) { try stored(seq: 2).decoded(as: BoardEdit.self) }
        #expect(throws: WireError.invalidField("change.stamp")) {
            try stored(stamp: Stamp(wallMilliseconds: 2)).decoded(as: BoardEdit.self)
        }
        #expect(throws: WireError.invalidField("change.document")) {
            try stored(board: "other").decoded(as: BoardEdit.self)
        }
    }
}
