import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@Suite struct ClientSessionTests {
    typealias Action = ClientSession.Action

    static let device = ReplicaID(high: 0xD, low: 0xE)
    static let server = ReplicaID(high: 0x5, low: 0x5)

    static func session(maximumChanges: Int = 512, inFlight: Int = 8) -> ClientSession {
        ClientSession(
            configuration: .init(
                device: device,
                limits: .init(maximumChanges: maximumChanges),
                maximumPacksInFlight: inFlight
            )
        )
    }

    static let welcome = ServerMessage.welcome(
        protocolVersion: SyncProtocol.version,
        server: server,
        maximumFrameBytes: 1 << 20,
        serverTime: 1_800_000_000_000
    )

    /// Connects and welcomes, then grants every joined room as an open one, returning the actions
    /// (grants left out, and one outbox read however many rooms were granted).
    static func open(_ session: inout ClientSession) -> [Action] {
        session.connecting()
        _ = session.connected()
        var actions = Array(session.received(welcome).drop { $0 == .learnServerTime(milliseconds: 1_800_000_000_000) })
        for room in session.rooms.keys.sorted() {
            for action in session.received(.access(room: room, rights: .edit, guarded: false)) {
                if case .granted = action { continue }
                if case .readOutbox = action, actions.contains(action) { continue }
                actions.append(action)
            }
        }
        return actions
    }

    static func pushes(_ actions: [Action]) -> [(room: String, bytes: [UInt8])] {
        actions.compactMap { action in
            if case .send(.push(let room, let bytes)) = action { (room, bytes) } else { nil }
        }
    }

    @Test func helloThenWelcomeSubscribesEveryRoomFromItsWatermark() {
        var session = Self.session()
        #expect(session.join("beta", watermark: 7).isEmpty, "offline: the subscription waits for the welcome")
        #expect(session.join("alpha", watermark: 0).isEmpty)
        session.connecting()
        #expect(
            session.connected() == [
                .send(
                    .hello(
                        protocolVersion: SyncProtocol.version,
                        minimumProtocolVersion: SyncProtocol.minimumVersion,
                        device: Self.device,
                        agent: "inkwell-swift/1"
                    )
                )
            ]
        )
        #expect(
            session.received(Self.welcome) == [
                .learnServerTime(milliseconds: 1_800_000_000_000),
                .send(.subscribe(room: "alpha", after: 0, capability: "")),
                .send(.subscribe(room: "beta", after: 7, capability: "")),
            ],
            "nothing is pushed before the server grants a room"
        )
        #expect(
            session.received(.access(room: "alpha", rights: .edit, guarded: false)) == [
                .granted(room: "alpha", rights: .edit, guarded: false), .readOutbox(limit: 8 * 512),
            ]
        )
        #expect(session.join("gamma", watermark: 3) == [.send(.subscribe(room: "gamma", after: 3, capability: ""))])
        #expect(session.leave("beta") == [.send(.unsubscribe(room: "beta"))])
        #expect(session.leave("beta").isEmpty)
    }

    @Test func anAckTakesThePacksChangesOffTheOutboxAndCountsAsSeen() throws {
        var random = SeededGenerator(seed: seed("anAckTakesThePacksChangesOffTheOutboxAndCountsAsSeen"))
        var session = Self.session()
        _ = session.join("room", watermark: 0)
        _ = Self.open(&session)
        let key = AuthorKey(using: &random)
        let queued = (1...3).map {
            queuedChange(room: "room", replica: key.replica, seq: $0, payloadBytes: 30, using: &random)
        }
        let pushes = Self.pushes(session.plan(outbox: queued, keys: [key.replica: key]))
        #expect(pushes.count == 1)
        let contents = try packContents(pushes[0].bytes)
        #expect(contents.author == key.replica)
        #expect(contents.changes == queued.map(\.payload))
        #expect(
            session.plan(outbox: queued, keys: [key.replica: key]).isEmpty,
            "changes in flight are not planned twice"
        )
        let id = PackID(of: pushes[0].bytes)

        #expect(
            session.received(.ack(room: "room", pack: id, serverSeq: 1)) == [
                .acknowledge(queued.map(\.id), room: "room", position: 1)
            ],
            "the cursor passes the pack only once its changes are off the outbox"
        )
        #expect(
            session.acknowledgementStored(room: "room", position: 1) == [
                .persistWatermark(room: "room", position: 1), .readOutbox(limit: 8 * 512),
            ]
        )
        #expect(session.inFlight.isEmpty)
        // The same ack again (a pack pushed twice is acknowledged twice) changes nothing.
        #expect(session.received(.ack(room: "room", pack: id, serverSeq: 1)).isEmpty)
    }

    @Test func unacknowledgedPacksArePushedAgainByteForByteAfterAReconnect() throws {
        var random = SeededGenerator(seed: seed("unacknowledgedPacksArePushedAgainByteForByteAfterAReconnect"))
        var session = Self.session(maximumChanges: 2, inFlight: 6)
        _ = session.join("a", watermark: 0)
        _ = session.join("b", watermark: 0)
        _ = Self.open(&session)
        let keys = ["a": AuthorKey(using: &random), "b": AuthorKey(using: &random)]
        let replicas = keys.mapValues(\.replica)
        let signers = Dictionary(uniqueKeysWithValues: keys.values.map { ($0.replica, $0) })
        var seqs: [String: UInt64] = [:]
        let queued = (0..<12).map { index -> StoredChange in
            let room = index.isMultiple(of: 3) ? "b" : "a"
            seqs[room, default: 0] += 1
            return queuedChange(
                room: room,
                replica: replicas[room]!,
                seq: seqs[room]!,
                payloadBytes: 40,
                using: &random
            )
        }
        let pushed = Self.pushes(session.plan(outbox: queued, keys: signers))
        #expect(pushed.count == 6)
        let ids = try pushed.map { try PackCodec.header(of: $0.bytes).id }
        #expect(Set(ids).count == 6)

        // Acks for some arrive, in any order; the connection drops before the others do.
        let acked = Set(ids.indices.shuffled(using: &random).prefix(Int.random(in: 0...5, using: &random)))
        var position: [String: UInt64] = [:]
        for index in acked.sorted() {
            position[pushed[index].room, default: 0] += 1
            _ = Self.storingAcknowledgements(
                session.received(
                    .ack(room: pushed[index].room, pack: ids[index], serverSeq: position[pushed[index].room]!)
                ),
                in: &session
            )
        }
        #expect(session.disconnected(closeCode: nil, reason: nil).isEmpty)
        #expect(session.progress(outboxBytes: 1).state == .offline)

        let again = Self.open(&session)
        let unacknowledged = pushed.indices.filter { !acked.contains($0) }
        #expect(
            again.prefix(2) == [
                .send(.subscribe(room: "a", after: position["a"] ?? 0, capability: "")),
                .send(.subscribe(room: "b", after: position["b"] ?? 0, capability: "")),
            ]
        )
        // Room by room as each is granted, each room's packs in their first order.
        let repushed = Self.pushes(again)
        for room in ["a", "b"] {
            #expect(
                repushed.filter { $0.room == room }.map(\.bytes)
                    == unacknowledged.filter { pushed[$0].room == room }.map { pushed[$0].bytes }
            )
        }
        #expect(repushed.count == unacknowledged.count)
        // Planning the whole queue now adds nothing for what is still in flight.
        let remaining = Set(session.inFlight.flatMap(\.changes))
        let fresh = Self.pushes(session.plan(outbox: queued.filter { remaining.contains($0.id) }, keys: signers))
        #expect(fresh.isEmpty)
    }

    @Test func anAckWhoseChangesTheStoreDidNotTakeOffTheOutboxLeavesTheCursorBeforeItsPack() throws {
        var random = SeededGenerator(seed: seed("anAckWhoseChangesTheStoreDidNotTakeOffTheOutbox"))
        var session = Self.session(maximumChanges: 3, inFlight: 2)
        _ = session.join("r", watermark: 0)
        _ = Self.open(&session)
        let key = AuthorKey(using: &random)
        let queued = [queuedChange(room: "r", replica: key.replica, seq: 1, payloadBytes: 8, using: &random)]
        _ = session.plan(outbox: queued, keys: [key.replica: key])
        let ack = session.received(.ack(room: "r", pack: session.inFlight[0].id, serverSeq: 1))
        #expect(ack == [.acknowledge(queued.map(\.id), room: "r", position: 1)])
        // The store failed (a full disk): the connection ends, and the next subscription asks for the pack again.
        _ = session.disconnected(closeCode: nil, reason: nil)
        #expect(Self.open(&session).first == .send(.subscribe(room: "r", after: 0, capability: "")))
    }

    /// `actions`, with what follows once the store took their acknowledged changes off the outbox.
    static func storingAcknowledgements(
        _ actions: [ClientSession.Action],
        in session: inout ClientSession
    )
        -> [ClientSession.Action]
    {
        var all = actions
        for case .acknowledge(_, let room, let position) in actions {
            all += session.acknowledgementStored(room: room, position: position)
        }
        return all
    }

    @Test func theNumberOfPacksInFlightIsBounded() {
        var random = SeededGenerator(seed: seed("theNumberOfPacksInFlightIsBounded"))
        var session = Self.session(maximumChanges: 3, inFlight: 2)
        _ = session.join("r", watermark: 0)
        #expect(Self.open(&session).last == .readOutbox(limit: 6))
        let key = AuthorKey(using: &random)
        let queued = (1...15).map {
            queuedChange(room: "r", replica: key.replica, seq: $0, payloadBytes: 8, using: &random)
        }
        let first = Self.pushes(session.plan(outbox: queued, keys: [key.replica: key]))
        #expect(first.count == 2)
        #expect(session.outboxChanged().isEmpty, "no room in flight: nothing to read")
        let id = session.inFlight[0].id
        let actions = Self.storingAcknowledgements(
            session.received(.ack(room: "r", pack: id, serverSeq: 1)),
            in: &session
        )
        #expect(actions.last == .readOutbox(limit: 3 + 3), "one pack still in flight, room for one more")
        let next = Self.pushes(session.plan(outbox: Array(queued.dropFirst(3)), keys: [key.replica: key]))
        #expect(next.count == 1)
        #expect(session.inFlight.map { $0.changes.map(\.seq) } == [[4, 5, 6], [7, 8, 9]])
    }

    @Test func persistedWatermarksFollowTheContiguityRule() {
        var random = SeededGenerator(seed: seed("persistedWatermarksFollowTheContiguityRule"))
        for _ in 0..<50 {
            var session = Self.session(maximumChanges: 1, inFlight: 1_000)
            let start = UInt64.random(in: 0...20, using: &random)
            _ = session.join("room", watermark: start)
            _ = Self.open(&session)
            let count = Int.random(in: 1...60, using: &random)
            // Each position after the start is either someone else's pack or one of this device's pushes.
            let key = AuthorKey(using: &random)
            let ours = (1...count).filter { _ in Bool.random(using: &random) }
            let queued = ours.enumerated().map { index, _ in
                queuedChange(
                    room: "room",
                    replica: key.replica,
                    seq: UInt64(index + 1),
                    payloadBytes: 4,
                    using: &random
                )
            }
            _ = session.plan(outbox: queued, keys: [key.replica: key])
            let packIDs = session.inFlight.map(\.id)
            var arrivals: [(position: UInt64, ack: PackID?)] = (1...count).map { (start + UInt64($0), nil) }
            for (index, offset) in ours.enumerated() { arrivals[offset - 1].ack = packIDs[index] }
            arrivals.shuffle(using: &random)

            var seen: Set<UInt64> = []
            var persisted = start
            for arrival in arrivals {
                var actions =
                    if let pack = arrival.ack {
                        session.received(.ack(room: "room", pack: pack, serverSeq: arrival.position))
                    } else {
                        session.stored(
                            room: "room",
                            positions: [arrival.position],
                            packBytes: 10,
                            head: start + UInt64(count)
                        )
                    }
                // The store took the acknowledged changes off the outbox: the cursor passes their pack.
                for case .acknowledge(_, let room, let position) in actions {
                    actions += session.acknowledgementStored(room: room, position: position)
                }
                seen.insert(arrival.position)
                for case .persistWatermark(_, let position) in actions {
                    #expect(position > persisted, "watermarks only move forward")
                    persisted = position
                }
                #expect(persisted == RoomCursorTests.reference(start: start, seen: seen))
            }
            #expect(persisted == start + UInt64(count))
            #expect(session.inFlight.isEmpty)
        }
    }

    @Test func aRefusedProtocolVersionEndsTheSession() {
        var session = Self.session()
        _ = session.join("room", watermark: 0)
        session.connecting()
        _ = session.connected()
        let refusal = "this server speaks protocol versions 2 to 3: please update the app"
        #expect(
            session.received(.error(code: 2, message: refusal, fatal: true, room: ""))
                == [.fail(.unsupportedVersion(refusal))]
        )
        #expect(session.disconnected(closeCode: 4001, reason: "bye").isEmpty)
        #expect(session.isFailed)
        #expect(session.connected().isEmpty, "a failed session never says hello again")
        #expect(session.progress(outboxBytes: 0).state == .offline)

        // The close code alone is enough, with the fatal frame's message or else the close reason.
        var closeOnly = Self.session()
        closeOnly.connecting()
        _ = closeOnly.connected()
        #expect(closeOnly.received(.error(code: 99, message: "too old", fatal: true, room: "")).isEmpty)
        #expect(closeOnly.disconnected(closeCode: 4001, reason: "x") == [.fail(.unsupportedVersion("too old"))])
        var reasonOnly = Self.session()
        reasonOnly.connecting()
        #expect(reasonOnly.disconnected(closeCode: 4001, reason: "x") == [.fail(.unsupportedVersion("x"))])
    }

    @Test func otherClosesAndErrorsLeadToAReconnection() {
        var session = Self.session()
        _ = session.join("room", watermark: 0)
        _ = Self.open(&session)
        #expect(
            session.received(
                .error(code: 8, message: "the pack was not stored; push it again", fatal: false, room: "room")
            )
                == [.disconnect(reason: "the server could not store a push")]
        )
        #expect(session.received(.error(code: 5, message: "subscribe first", fatal: false, room: "x")).isEmpty)
        for code: UInt16? in [nil, 1000, 1001, 1002, 1007, 1008, 1009] {
            #expect(session.disconnected(closeCode: code, reason: nil).isEmpty)
            #expect(!session.isFailed)
            _ = Self.open(&session)
        }
    }

    /// Bytes behind are the server's word, room by room: their sum stops at the largest figure rather
    /// than overflowing.
    @Test func bytesBehindFromTheServerAddUpWithoutOverflowing() {
        var session = Self.session()
        _ = session.join("a", watermark: 0)
        _ = session.join("b", watermark: 0)
        _ = Self.open(&session)
        _ = session.received(.progress(room: "a", head: .max, bytesBehind: .max, packsBehind: .max))
        _ = session.received(.progress(room: "b", head: .max, bytesBehind: .max - 1, packsBehind: 1))
        #expect(
            session.progress(outboxBytes: 0) == SyncProgress(state: .syncing, bytesToUpload: 0, bytesToDownload: .max)
        )
        _ = session.stored(room: "a", positions: [.max, 0, 1], packBytes: .max, head: .max)
        #expect(session.progress(outboxBytes: 0).bytesToDownload == UInt64.max - 1)
    }

    @Test func progressAddsUpWhatIsLeftEachWay() {
        var session = Self.session()
        #expect(session.progress(outboxBytes: 5) == SyncProgress(state: .offline, bytesToUpload: 5, bytesToDownload: 0))
        _ = session.join("a", watermark: 0)
        _ = session.join("b", watermark: 4)
        session.connecting()
        #expect(session.progress(outboxBytes: 0).state == .connecting)
        _ = session.connected()
        #expect(session.progress(outboxBytes: 0).state == .connecting, "until the welcome")
        _ = session.received(Self.welcome)
        #expect(session.progress(outboxBytes: 0).state == .syncing, "no room has caught up yet")

        _ = session.received(.progress(room: "a", head: 10, bytesBehind: 1_000, packsBehind: 10))
        _ = session.received(.progress(room: "b", head: 6, bytesBehind: 500, packsBehind: 2))
        #expect(session.progress(outboxBytes: 0).bytesToDownload == 1_500)
        _ = session.stored(room: "a", positions: [1, 2, 3, 4], packBytes: 300, head: 10)
        #expect(session.progress(outboxBytes: 0).bytesToDownload == 1_200)
        _ = session.stored(room: "b", positions: [5, 6], packBytes: 900, head: 6)
        #expect(session.progress(outboxBytes: 0).bytesToDownload == 700, "more than announced counts as all of it")
        _ = session.received(.progress(room: "b", head: 6, bytesBehind: 0, packsBehind: 0))
        _ = session.stored(room: "a", positions: [5, 6, 7, 8, 9, 10], packBytes: 700, head: 10)
        #expect(session.progress(outboxBytes: 0) == SyncProgress(state: .syncing, bytesToUpload: 0, bytesToDownload: 0))
        _ = session.received(.progress(room: "a", head: 10, bytesBehind: 0, packsBehind: 0))
        #expect(session.progress(outboxBytes: 0) == SyncProgress(state: .synced, bytesToUpload: 0, bytesToDownload: 0))
        #expect(session.progress(outboxBytes: 12).state == .syncing, "something to upload")

        // A live pack names a newer head; until it is stored the room is behind.
        _ = session.stored(room: "a", positions: [], packBytes: 0, head: 12)
        #expect(session.progress(outboxBytes: 0).state == .syncing)
        _ = session.stored(room: "a", positions: [11, 12], packBytes: 50, head: 12)
        #expect(session.progress(outboxBytes: 0).state == .synced)

        _ = session.disconnected(closeCode: 1001, reason: nil)
        #expect(session.progress(outboxBytes: 0) == SyncProgress(state: .offline, bytesToUpload: 0, bytesToDownload: 0))
        _ = Self.open(&session)
        #expect(session.progress(outboxBytes: 0).state == .syncing, "caught up again only when the server says so")
    }

    @Test func presenceGoesOnlyToAndFromJoinedRooms() {
        var session = Self.session()
        _ = session.join("room", watermark: 0)
        let mine = Presence(room: "room", device: Self.device, name: "me", colour: 1, cursor: (1, 2))
        #expect(session.presence(mine).isEmpty, "offline presence is dropped")
        _ = Self.open(&session)
        #expect(session.presence(mine) == [.send(.presence(mine))])
        var elsewhere = mine
        elsewhere.room = "other"
        #expect(session.presence(elsewhere).isEmpty)

        let theirs = Presence(room: "room", device: ReplicaID(high: 1, low: 1), name: "them", colour: 2)
        #expect(session.received(.presence(theirs)) == [.deliver(theirs)])
        #expect(session.received(.presence(mine)).isEmpty, "this device's own presence is not echoed to the app")
        var unjoined = theirs
        unjoined.room = "other"
        #expect(session.received(.presence(unjoined)).isEmpty)
    }

    @Test func framesOutOfOrderDropTheConnection() {
        var session = Self.session()
        session.connecting()
        _ = session.connected()
        #expect(
            session.received(.ack(room: "r", pack: PackID(of: [1]), serverSeq: 1)) == [
                .disconnect(reason: "ack before welcome")
            ]
        )
        _ = session.received(Self.welcome)
        #expect(session.received(Self.welcome) == [.disconnect(reason: "welcome out of order")])
    }
}
