import InkwellBoard
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import Testing

@testable import InkwellClient

@Suite struct PackIntakeTests {
    static let logger = Logger(label: "test")

    static func change(_ replica: ReplicaID, _ seq: UInt64, using random: inout SeededGenerator) -> BoardChange {
        BoardChange(
            id: ChangeID(replica: replica, seq: seq),
            stamp: Stamp(wallMilliseconds: 1_800_000_000_000 + seq),
            payload: randomStroke(using: &random)
        )
    }

    static func pack(_ changes: [BoardChange], room: String, schema: UInt32 = WireSchema.current) -> [UInt8] {
        PackCodec.encode(
            Pack(
                id: PackID(room: room, changes: changes.map(\.id)),
                schemaVersion: schema,
                entries: changes.map { Pack.Entry(room: room, change: ChangeCodec.encode($0)) }
            )
        )
    }

    @Test func packsAreStoredSetAsideOrSkippedAndAllCountAsSeen() throws {
        var random = SeededGenerator(seed: seed("packsAreStoredSetAsideOrSkippedAndAllCountAsSeen"))
        let store = try Store.inMemory()
        let intake = PackIntake(store: store)
        let alice = ReplicaID(using: &random)
        let bob = ReplicaID(using: &random)
        let good = (1...3).map { Self.change(alice, $0, using: &random) }
        // Bob's seq 1 is already stored with other content: the one in the pack reuses the id.
        let stored = Self.change(bob, 1, using: &random)
        try store.append([StoredChange(stored, room: "room")])
        let impostor = Self.change(bob, 1, using: &random)
        let bobsNext = Self.change(bob, 2, using: &random)
        let elsewhere = Self.change(ReplicaID(using: &random), 1, using: &random)
        let mixed = PackCodec.encode(
            Pack(
                id: PackID(high: 1, low: 2),
                entries: [
                    Pack.Entry(room: "room", change: ChangeCodec.encode(impostor)),
                    Pack.Entry(room: "room", change: ChangeCodec.encode(bobsNext)),
                    Pack.Entry(room: "another", change: ChangeCodec.encode(elsewhere)),
                    Pack.Entry(room: "room", change: [0xFF, 0x01, 0x02]),
                ]
            )
        )
        let future = Self.pack([Self.change(alice, 4, using: &random)], room: "room", schema: 99)
        let packs = [
            StoredPack(serverSeq: 5, bytes: Self.pack(good, room: "room")),
            StoredPack(serverSeq: 6, bytes: future),
            StoredPack(serverSeq: 7, bytes: [0x0A, 0xFF, 0xFF]),
            StoredPack(serverSeq: 8, bytes: mixed),
        ]

        let result = try intake.ingest(room: "room", packs: packs, logger: Self.logger)
        #expect(result.positions == [5, 6, 7, 8])
        #expect(result.packBytes == UInt64(packs.map(\.bytes.count).reduce(0, +)))
        #expect(result.inserted.map(\.change) == good + [bobsNext])
        #expect(result.inserted.allSatisfy { $0.origin == .remote && $0.room == "room" })
        #expect(result.setAside == 1)
        #expect(result.rejected == 2, "the undecodable change and the impostor")
        #expect(result.latestStamp == [good.map(\.stamp).max()!, impostor.stamp, bobsNext.stamp].max())
        #expect(try store.change(stored.id).map { try $0.boardChange() } == stored, "the stored change is kept")
        #expect(try store.change(elsewhere.id) == nil, "an entry for another room is not stored")
        let aside = try store.storedAside(upTo: 99)
        #expect(aside.map(\.bytes) == [future])
        #expect(aside.map(\.schemaVersion) == [99])
        #expect(try store.outboxSize().changes == 0, "received changes are not queued for upload")
        for change in good {
            let kept = try #require(try store.change(change.id))
            #expect(kept.payload == ChangeCodec.encode(change), "the exact bytes received")
        }

        let again = try intake.ingest(room: "room", packs: [packs[0]], logger: Self.logger)
        #expect(again.positions == [5] && again.inserted.isEmpty, "storing a pack again is harmless")
        try store.checkInvariants()
    }
}
