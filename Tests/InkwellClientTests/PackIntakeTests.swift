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
    /// The receiving device's clock: the stamps below are this close to it.
    static let now: UInt64 = 1_800_000_000_000

    struct FixedClock: WallClock {
        var milliseconds = PackIntakeTests.now
        func millisecondsSince1970() -> UInt64 { milliseconds }
    }

    static func change(
        _ replica: ReplicaID,
        _ seq: UInt64,
        stamp: Stamp? = nil,
        using random: inout SeededGenerator
    ) -> BoardChange {
        BoardChange(
            id: ChangeID(replica: replica, seq: seq),
            stamp: stamp ?? Stamp(wallMilliseconds: now + seq),
            payload: randomStroke(using: &random)
        )
    }

    static func pack(
        _ changes: [BoardChange],
        room: String,
        by key: AuthorKey,
        schema: UInt32 = WireSchema.current
    ) -> [UInt8] {
        PackCodec.encode(
            Pack(room: room, schemaVersion: schema, changes: changes.map(ChangeCodec.encode)),
            signedBy: key
        )
    }

    @Test func thisDevicesOwnChangesThatComeBackInACatchUpLeaveTheOutbox() throws {
        var random = SeededGenerator(seed: seed("thisDevicesOwnChangesThatComeBackInACatchUpLeaveTheOutbox"))
        let store = try Store.inMemory()
        let own = try #require(try store.authorKey(of: try store.replica(for: "room")))
        let other = AuthorKey(using: &random)
        let mine = (1...3).map { Self.change(own.replica, $0, using: &random) }
        try store.append(mine.map { StoredChange($0, room: "room") })
        try store.enqueue(mine.map(\.id))
        // The acknowledgement of the first two was lost; they come back in the catch-up, beside another's.
        let packs = [
            StoredPack(serverSeq: 1, bytes: Self.pack(Array(mine.prefix(2)), room: "room", by: own)),
            StoredPack(
                serverSeq: 2,
                bytes: Self.pack([Self.change(other.replica, 1, using: &random)], room: "room", by: other)
            ),
        ]
        _ = try PackIntake(store: store, clock: FixedClock()).ingest(room: "room", packs: packs, logger: Self.logger)
        #expect(try store.outbox().map(\.id) == [mine[2].id], "the third was never stored by the server")
        #expect(try store.acknowledgedSeq(of: own.replica) == 2)
    }

    /// A store keeps every change the wire carries: a page may send a change of up to
    /// `WireLimits.maximumChangeBytes` (a paste or a restore of thousands of strokes), and a replica that
    /// refused it would show another board than the page's for good.
    @Test func aChangeAsLargeAsTheWireAllowsIsStored() throws {
        var random = SeededGenerator(seed: seed("aChangeAsLargeAsTheWireAllowsIsStored"))
        let store = try Store.inMemory()
        let other = AuthorKey(using: &random)
        let big = BoardChange(
            id: ChangeID(replica: other.replica, seq: 1),
            stamp: Stamp(wallMilliseconds: Self.now),
            payload: randomStroke(count: WireLimits.maximumPointsPerOperation, using: &random)
        )
        let bytes = ChangeCodec.encode(big)
        #expect(bytes.count > 1 << 20 && bytes.count <= WireLimits.maximumChangeBytes, "\(bytes.count) bytes")
        let pack = StoredPack(serverSeq: 1, bytes: Self.pack([big], room: "room", by: other))
        let result = try PackIntake(store: store, clock: FixedClock()).ingest(
            room: "room",
            packs: [pack],
            logger: Self.logger
        )
        #expect(result.rejected == 0)
        #expect(try store.change(big.id)?.payload == bytes)
    }

    @Test func packsAreStoredSetAsideOrSkippedAndAllCountAsSeen() throws {
        var random = SeededGenerator(seed: seed("packsAreStoredSetAsideOrSkippedAndAllCountAsSeen"))
        let store = try Store.inMemory()
        let intake = PackIntake(store: store, clock: FixedClock())
        let alice = AuthorKey(using: &random)
        let bob = AuthorKey(using: &random)
        let good = (1...3).map { Self.change(alice.replica, $0, using: &random) }
        // Bob's seq 1 is already stored with other content: the one in the pack reuses the id.
        let stored = Self.change(bob.replica, 1, using: &random)
        try store.append([StoredChange(stored, room: "room")])
        let impostor = Self.change(bob.replica, 1, using: &random)
        let bobsNext = Self.change(bob.replica, 2, using: &random)
        let mixed = Self.pack([impostor, bobsNext], room: "room", by: bob)
        let future = Self.pack([Self.change(alice.replica, 4, using: &random)], room: "room", by: alice, schema: 99)
        let packs = [
            StoredPack(serverSeq: 5, bytes: Self.pack(good, room: "room", by: alice)),
            StoredPack(serverSeq: 6, bytes: future),
            StoredPack(serverSeq: 7, bytes: [0x0A, 0xFF, 0xFF]),
            StoredPack(serverSeq: 8, bytes: mixed),
        ]

        let result = try intake.ingest(room: "room", packs: packs, logger: Self.logger)
        #expect(result.positions == [5, 6, 7, 8])
        #expect(result.packBytes == UInt64(packs.map(\.bytes.count).reduce(0, +)))
        #expect(result.inserted.map(\.change) == (good + [bobsNext]).map(\.encoded))
        #expect(result.inserted.allSatisfy { $0.origin == .remote && $0.room == "room" })
        #expect(result.setAside == 1)
        #expect(result.forged == 1, "the bytes that are no pack")
        #expect(result.rejected == 1, "the impostor")
        #expect(result.latestStamp == [good.map(\.stamp).max()!, impostor.stamp, bobsNext.stamp].max())
        #expect(
            try store.change(stored.id).map { try $0.decoded(as: BoardEdit.self) } == stored,
            "the stored change is kept"
        )
        let aside = try store.storedAside(upTo: 99)
        #expect(aside.map(\.bytes) == [future, [0x0A, 0xFF, 0xFF]])
        #expect(try store.outboxSize().changes == 0, "received changes are not queued for upload")
        for change in good {
            let kept = try #require(try store.change(change.id))
            #expect(kept.payload == ChangeCodec.encode(change), "the exact bytes received")
        }

        let again = try intake.ingest(room: "room", packs: [packs[0]], logger: Self.logger)
        #expect(again.positions == [5] && again.inserted.isEmpty, "storing a pack again is harmless")
        try store.checkInvariants()
    }

    /// Whatever the server relays, a receiver applies nothing it cannot attribute: a pack with another
    /// replica's change, a pack signed for another room, a tampered pack, one with no signature.
    @Test func forgedPacksAreKeptAsideAndNeverApplied() throws {
        var random = SeededGenerator(seed: seed("forgedPacksAreKeptAsideAndNeverApplied"))
        let store = try Store.inMemory()
        let intake = PackIntake(store: store, clock: FixedClock())
        let mallory = AuthorKey(using: &random)
        let victim = AuthorKey(using: &random)
        let own = Self.change(mallory.replica, 1, using: &random)
        let forged = Self.change(victim.replica, 1, using: &random)
        var tampered = Self.pack([own], room: "room", by: mallory)
        tampered[tampered.count / 2] ^= 0x10
        let honest = Self.pack([own], room: "room", by: mallory)
        let packs = [
            StoredPack(serverSeq: 1, bytes: Self.pack([forged], room: "room", by: mallory)),
            StoredPack(serverSeq: 2, bytes: Self.pack([own, forged], room: "room", by: mallory)),
            StoredPack(serverSeq: 3, bytes: Self.pack([own], room: "elsewhere", by: mallory)),
            StoredPack(serverSeq: 4, bytes: tampered),
            StoredPack(serverSeq: 5, bytes: Array(honest.dropLast(66))),
            StoredPack(serverSeq: 6, bytes: Array(honest.dropLast(1))),
        ]
        let result = try intake.ingest(room: "room", packs: packs, logger: Self.logger)
        #expect(result.forged == packs.count)
        #expect(result.inserted.isEmpty)
        #expect(result.positions == [1, 2, 3, 4, 5, 6], "refused packs count as seen: they never become good")
        #expect(try store.change(forged.id) == nil)
        #expect(try store.change(own.id) == nil)
        #expect(try store.storedAside(upTo: WireSchema.current).map(\.bytes) == packs.map(\.bytes))
        // Kept under schema 0, so no start after an upgrade verifies them again; and never applied.
        #expect(try store.storedAside(upTo: PackIntake.neverReopened).count == packs.count)
        var upgraded = intake
        upgraded.understanding = WireSchema.current + 1
        #expect(try upgraded.reopen(logger: Self.logger).isEmpty)
        #expect(try store.storedAside(upTo: .max).count == packs.count)
        // The honest pack beside them is taken.
        let taken = try intake.ingest(
            room: "room",
            packs: [StoredPack(serverSeq: 7, bytes: honest)],
            logger: Self.logger
        )
        #expect(taken.inserted.map(\.change) == [own].map(\.encoded))
        try store.checkInvariants()
    }

    /// A change stamped beyond the lead (the end of time included) is kept aside, not applied and not
    /// witnessed; once the clock catches up, a review takes it in.
    @Test func changesStampedTooFarAheadWaitForTheClock() throws {
        var random = SeededGenerator(seed: seed("changesStampedTooFarAheadWaitForTheClock"))
        let store = try Store.inMemory()
        let key = AuthorKey(using: &random)
        let lead = SyncProtocol.maximumStampLeadMilliseconds
        let atTheBound = Self.change(key.replica, 1, stamp: Stamp(wallMilliseconds: Self.now + lead), using: &random)
        let justPast = Self.change(key.replica, 2, stamp: Stamp(wallMilliseconds: Self.now + lead + 1), using: &random)
        let endOfTime = Self.change(key.replica, 3, stamp: Stamp(rawValue: .max), using: &random)
        let packs = [
            StoredPack(serverSeq: 1, bytes: Self.pack([atTheBound, justPast, endOfTime], room: "room", by: key))
        ]
        let result = try PackIntake(store: store, clock: FixedClock()).ingest(
            room: "room",
            packs: packs,
            logger: Self.logger
        )
        #expect(result.inserted.map(\.change) == [atTheBound].map(\.encoded))
        #expect(result.setAside == 2)
        #expect(result.latestStamp == atTheBound.stamp, "what is kept aside is not witnessed")
        var clock = HybridLogicalClock()
        if let latest = result.latestStamp { clock.witness(latest, wallMilliseconds: Self.now) }
        #expect(clock.next(wallMilliseconds: Self.now) > atTheBound.stamp)

        // Two milliseconds later, the change just past the bound is due; the end of time never is.
        let later = PackIntake(store: store, clock: FixedClock(milliseconds: Self.now + 2))
        #expect(try later.review(logger: Self.logger).map(\.change) == [justPast].map(\.encoded))
        #expect(try store.change(justPast.id) != nil)
        #expect(try store.change(endOfTime.id) == nil)
        #expect(try store.storedAside(upTo: WireSchema.current).count == 1)
        #expect(try later.review(logger: Self.logger).isEmpty)
        try store.checkInvariants()
    }

    @Test func aPackOfANewerSchemaKeptAsideIsStoredOnceAnUpgradeUnderstandsIt() throws {
        var random = SeededGenerator(seed: seed("aPackOfANewerSchemaKeptAsideIsStoredOnceAnUpgradeUnderstandsIt"))
        let store = try Store.inMemory()
        let alice = AuthorKey(using: &random)
        let changes = (1...3).map { Self.change(alice.replica, $0, using: &random) }
        let newer = WireSchema.current + 1
        let today = PackIntake(store: store, clock: FixedClock())
        let kept = try today.ingest(
            room: "room",
            packs: [StoredPack(serverSeq: 1, bytes: Self.pack(changes, room: "room", by: alice, schema: newer))],
            logger: Self.logger
        )
        #expect(kept.setAside == 1 && kept.inserted.isEmpty)
        #expect(try today.reopen(logger: Self.logger).isEmpty, "this version still cannot read it")
        #expect(try store.storedAside(upTo: newer).count == 1)

        var upgraded = today
        upgraded.understanding = newer
        let opened = try upgraded.reopen(logger: Self.logger)
        #expect(opened.map(\.change) == changes.map(\.encoded))
        #expect(opened.allSatisfy { $0.room == "room" && $0.origin == .remote })
        for change in changes { #expect(try store.change(change.id) != nil) }
        #expect(try store.storedAside(upTo: .max).isEmpty, "forgotten once stored")
        #expect(try upgraded.reopen(logger: Self.logger).isEmpty)
        try store.checkInvariants()
    }

    @Test func aSealedPackThatCameBeforeTheKeyOpensOnceTheKeyIsHeld() throws {
        var random = SeededGenerator(seed: seed("aSealedPackThatCameBeforeTheKeyOpensOnceTheKeyIsHeld"))
        let store = try Store.inMemory()
        let alice = AuthorKey(using: &random)
        let roomKey = RoomKey.generate(using: &random)
        let change = Self.change(alice.replica, 1, using: &random)
        let sealed = PackCodec.encode(
            Pack(room: "room", changes: [ChangeCodec.encode(change)]),
            signedBy: alice,
            sealedWith: roomKey
        )
        let intake = PackIntake(store: store, clock: FixedClock())
        let kept = try intake.ingest(
            room: "room",
            packs: [StoredPack(serverSeq: 1, bytes: sealed)],
            logger: Self.logger
        )
        #expect(kept.setAside == 1 && kept.inserted.isEmpty, "no key yet")
        #expect(try intake.reopen(logger: Self.logger).isEmpty)
        // Another key opens nothing, and leaves it for the right one.
        try store.setCredentials(
            .from(link: Capability.mint(.view), key: RoomKey.generate(using: &random)),
            for: "room"
        )
        #expect(try intake.reopen(logger: Self.logger).isEmpty)
        try store.setCredentials(.from(link: Capability.mint(.view), key: roomKey), for: "room")
        #expect(try intake.reopen(logger: Self.logger).map(\.change) == [change.encoded])
        #expect(try store.change(change.id) != nil)
        #expect(try store.storedAside(upTo: .max).isEmpty)
    }
}
