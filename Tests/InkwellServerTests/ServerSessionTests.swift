import InkwellBoard
import InkwellServer
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@Suite struct ServerSessionTests {
    static let server = ReplicaID(high: 0x5E, low: 1)
    static let device = ReplicaID(high: 0xC1, low: 2)
    static let hello = SyncCodec.encode(
        ClientMessage.hello(
            protocolVersion: SyncProtocol.version,
            minimumProtocolVersion: 1,
            device: device,
            agent: "tests"
        )
    )
    /// The server's clock in these tests: a fixed instant.
    struct FixedClock: WallClock {
        var milliseconds: UInt64 = 1_800_000_000_000
        func millisecondsSince1970() -> UInt64 { milliseconds }
    }

    static let key = try! AuthorKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32))
    static let other = try! AuthorKey(rawRepresentation: [UInt8](repeating: 0x22, count: 32))

    /// A pack of `key`'s change `seq` (or `replica`'s, to forge one), stamped `ahead` ms after the server's clock.
    static func pack(
        room: String = "r",
        by key: AuthorKey = key,
        replica: ReplicaID? = nil,
        seq: UInt64 = 1,
        ahead: UInt64 = 0
    ) -> [UInt8] {
        let change = BoardChange(
            id: ChangeID(replica: replica ?? key.replica, seq: seq),
            stamp: Stamp(wallMilliseconds: FixedClock().milliseconds + ahead),
            payload: BoardEdit(board: "main", operations: [.clear])
        )
        return PackCodec.encode(Pack(room: room, changes: [ChangeCodec.encode(change)]), signedBy: key)
    }

    static let pack = pack()

    /// A session that said hello and follows the open room `r`, so it may push there.
    static func opened() -> ServerSession {
        var session = ServerSession(server: server, wallClock: FixedClock())
        _ = session.received(hello)
        _ = session.received(SyncCodec.encode(.subscribe(room: "r", after: 0, capability: "")))
        _ = session.authorized(room: "r", after: 0, capability: "", access: .open)
        return session
    }

    @Test func helloIsAnsweredWithWelcome() {
        var session = ServerSession(server: Self.server, wallClock: FixedClock())
        #expect(
            session.received(Self.hello)
                == [
                    .send(
                        .welcome(
                            protocolVersion: SyncProtocol.version,
                            server: Self.server,
                            maximumFrameBytes: UInt32(SyncProtocol.maximumFrameBytes),
                            serverTime: FixedClock().milliseconds
                        )
                    )
                ]
        )
        #expect(session.device == Self.device)
    }

    @Test func anythingBeforeHelloClosesTheConnection() {
        var session = ServerSession(server: Self.server)
        let actions = session.received(SyncCodec.encode(.subscribe(room: "r", after: 0, capability: "")))
        #expect(actions.last == .close(.protocolError, reason: "the first frame must be hello"))
        #expect(session.isClosed)
        #expect(session.received(Self.hello).isEmpty, "a closed session ignores everything")
    }

    @Test func aTooOldClientIsToldInPlainWords() {
        var session = ServerSession(server: Self.server)
        let actions = session.received(
            SyncCodec.encode(.hello(protocolVersion: 0, minimumProtocolVersion: 0, device: Self.device, agent: "old"))
        )
        guard case .send(.error(let code, let message, true, _)) = actions.first else {
            Issue.record("expected a fatal error frame")
            return
        }
        #expect(code == ErrorCode.unsupportedVersion.rawValue)
        #expect(message.hasSuffix("the app is older than the server; please update the app"), "\(message)")
        #expect(actions.last.map { if case .close(.unsupportedVersion, _) = $0 { true } else { false } } == true)
    }

    @Test func aClientNewerThanTheServerHearsThatTheServerIsTheOlderSide() {
        var session = ServerSession(server: Self.server)
        let newer = SyncProtocol.version + 1
        let actions = session.received(
            SyncCodec.encode(
                .hello(protocolVersion: newer + 1, minimumProtocolVersion: newer, device: Self.device, agent: "new")
            )
        )
        guard case .send(.error(ErrorCode.unsupportedVersion.rawValue, let message, true, _)) = actions.first else {
            Issue.record("expected a fatal unsupportedVersion error")
            return
        }
        #expect(message.contains("and this app speaks \(newer) to \(newer + 1)"), "\(message)")
        #expect(message.hasSuffix("the server is older than the app; whoever runs it needs to update it"))
        #expect(!message.contains("please update the app"))
        var malformed = ServerSession(server: Self.server)
        let refusal = malformed.received(
            SyncCodec.encode(.hello(protocolVersion: 4, minimumProtocolVersion: 5, device: Self.device, agent: "odd"))
        )
        guard case .send(.error(_, let odd, true, _)) = refusal.first else {
            Issue.record("expected a fatal error for a minimum above the version")
            return
        }
        #expect(odd.hasSuffix("the app's hello is malformed"), "a minimum above the version blames neither side")
    }

    @Test func aNewerClientIsSpokenToInTheNewestCommonVersion() {
        var session = ServerSession(server: Self.server, wallClock: FixedClock())
        let actions = session.received(
            SyncCodec.encode(.hello(protocolVersion: 9, minimumProtocolVersion: 1, device: Self.device, agent: "new"))
        )
        #expect(
            actions == [
                .send(
                    .welcome(
                        protocolVersion: SyncProtocol.version,
                        server: Self.server,
                        maximumFrameBytes: UInt32(SyncProtocol.maximumFrameBytes),
                        serverTime: FixedClock().milliseconds
                    )
                )
            ]
        )
    }

    @Test func subscribingCatchesUpAndPushedPacksAreAcknowledgedOnlyWhenStored() {
        var session = ServerSession(server: Self.server, wallClock: FixedClock())
        _ = session.received(Self.hello)
        #expect(
            session.received(SyncCodec.encode(.subscribe(room: "r", after: 7, capability: ""))) == [
                .authorize(room: "r", after: 7, capability: "")
            ]
        )
        #expect(session.rooms.isEmpty, "a room is followed once the server has looked it up")
        #expect(
            session.authorized(room: "r", after: 7, capability: "", access: .open) == [
                .send(.access(room: "r", rights: .edit, guarded: false)), .catchUp(room: "r", after: 7),
            ]
        )
        #expect(session.rooms == ["r"])
        let push = session.received(SyncCodec.encode(.push(room: "r", pack: Self.pack)))
        let id = PackID(of: Self.pack)
        #expect(
            push == [.append(room: "r", pack: id, bytes: Self.pack, author: Self.key.replica, snapshot: nil)],
            "no ack before it is durable"
        )
        #expect(session.stored(room: "r", pack: id, serverSeq: 8) == [.send(.ack(room: "r", pack: id, serverSeq: 8))])
        #expect(session.received(SyncCodec.encode(.unsubscribe(room: "r"))) == [.stopFollowing(room: "r")])
    }

    @Test func aPushToAFullRoomIsRefusedWithoutClosingAndAClosedSessionAnswersNothing() {
        var session = ServerSession(server: Self.server, wallClock: FixedClock())
        _ = session.received(Self.hello)
        guard case .send(.error(let code, _, let fatal, let room)) = session.roomFull(room: "r").first else {
            Issue.record("no error frame for a full room")
            return
        }
        #expect(code == ErrorCode.roomFull.rawValue && !fatal && room == "r")
        #expect(!session.isClosed)
        // Its later pushes to that room are refused without a commit; other rooms' are not.
        #expect(session.refusesAsFull(room: "r") && !session.refusesAsFull(room: "s"))
        _ = session.shutDown()
        #expect(session.roomFull(room: "r").isEmpty)
        #expect(session.stored(room: "r", pack: PackID(of: Self.pack), serverSeq: 1).isEmpty, "no ack once closed")
    }

    @Test func presenceIsRelayedOnlyForFollowedRoomsAndOnlyAsOneself() {
        var session = ServerSession(server: Self.server, wallClock: FixedClock())
        _ = session.received(Self.hello)
        let mine = Presence(room: "r", device: Self.device, name: "Ada", colour: 1, cursor: (3, 4))
        guard
            case .send(.error(let code, _, false, "r")) = session.received(
                SyncCodec.encode(ClientMessage.presence(mine))
            ).first
        else {
            Issue.record("expected a non-fatal error for a room not followed")
            return
        }
        #expect(code == ErrorCode.notAMember.rawValue)
        _ = session.received(SyncCodec.encode(.subscribe(room: "r", after: 0, capability: "")))
        _ = session.authorized(room: "r", after: 0, capability: "", access: .open)
        #expect(session.received(SyncCodec.encode(ClientMessage.presence(mine))) == [.relay(mine)])
        var spoofed = mine
        spoofed.device = ReplicaID(high: 0xBAD, low: 0)
        #expect(
            session.received(SyncCodec.encode(ClientMessage.presence(spoofed))).last
                == .close(.policyViolation, reason: "presence for another device")
        )
    }

    @Test func malformedFramesAndPacksCloseWithTheDocumentedCodes() {
        var garbage = Self.opened()
        #expect(garbage.received([0x0A, 0xFF, 0x01]).last.map(Self.closeCode) == CloseCode.invalidPayload)
        var badPack = Self.opened()
        #expect(
            badPack.received(SyncCodec.encode(.push(room: "r", pack: [0x0A, 0x01, 0x00]))).last.map(Self.closeCode)
                == CloseCode.invalidPayload
        )
        var huge = Self.opened()
        #expect(
            huge.received([UInt8](repeating: 0, count: SyncProtocol.maximumFrameBytes + 1)).last.map(Self.closeCode)
                == CloseCode.tooBig
        )
    }

    /// Random and mutated frames: every one either acts or closes cleanly; none crashes.
    @Test func hostileFramesNeverCrashTheSession() {
        let seed = SeededGenerator.seedFromEnvironment()
        print("server session fuzz: INKWELL_SEED=\(seed)")
        var generator = SeededGenerator(seed: seed)
        let seeds = [
            Self.hello, SyncCodec.encode(.subscribe(room: "r", after: 1, capability: "")),
            SyncCodec.encode(.push(room: "r", pack: Self.pack)),
        ]
        var closed = 0
        for _ in 0..<5_000 {
            var session =
                Bool.random(using: &generator)
                ? Self.opened() : ServerSession(server: Self.server, wallClock: FixedClock())
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                var frame = seeds.randomElement(using: &generator)!
                for _ in 0..<Int.random(in: 0...3, using: &generator) where !frame.isEmpty {
                    frame[Int.random(in: 0..<frame.count, using: &generator)] = UInt8.random(
                        in: 0...255,
                        using: &generator
                    )
                }
                _ = session.received(frame)
            }
            if session.isClosed { closed += 1 }
        }
        #expect(closed > 0)
    }

    /// Each forgery is refused with its own code and closes the connection; nothing reaches the log.
    @Test(
        arguments: [
            (
                "another replica's change", pack(replica: other.replica), ErrorCode.forgedAuthor,
                CloseCode.policyViolation
            ),
            ("replayed into another room", pack(room: "s"), ErrorCode.wrongRoom, CloseCode.policyViolation),
            ("a flipped signature bit", flipped(pack(), at: -1), ErrorCode.badSignature, CloseCode.invalidPayload),
            ("a flipped body byte", flipped(pack(), at: 40), ErrorCode.badSignature, CloseCode.invalidPayload),
            ("a truncated signature", Array(pack().dropLast(5)), ErrorCode.malformedPack, CloseCode.invalidPayload),
            ("no signature", Array(pack().dropLast(66)), ErrorCode.malformedPack, CloseCode.invalidPayload),
            (
                "a seq past the limit", pack(seq: WireLimits.maximumSeq + 1), ErrorCode.malformedPack,
                CloseCode.invalidPayload
            ),
        ]
    )
    func forgedPacksAreRefused(name: String, bytes: [UInt8], code: ErrorCode, close: CloseCode) {
        var session = Self.opened()
        let actions = session.received(SyncCodec.encode(.push(room: "r", pack: bytes)))
        guard case .send(.error(let sent, _, true, _)) = actions.first else {
            Issue.record("\(name): expected a fatal error frame, got \(actions)")
            return
        }
        #expect(sent == code.rawValue, "\(name)")
        #expect(actions.last.map(Self.closeCode) == close, "\(name)")
        #expect(!actions.contains { if case .append = $0 { true } else { false } }, "\(name): nothing stored")
        #expect(session.isClosed)
    }

    /// A pack a replica signs for itself holding another replica's change, beside its own: the whole pack goes.
    @Test func aForgedChangeMixedIntoAnHonestPackRefusesThePack() throws {
        let own = BoardChange(
            id: ChangeID(replica: Self.key.replica, seq: 1),
            stamp: Stamp(wallMilliseconds: FixedClock().milliseconds),
            payload: BoardEdit(board: "main", operations: [.clear])
        )
        let victim = BoardChange(
            id: ChangeID(replica: Self.other.replica, seq: 1),
            stamp: own.stamp,
            payload: own.payload
        )
        let bytes = PackCodec.encode(
            Pack(room: "r", changes: [own, victim].map(ChangeCodec.encode)),
            signedBy: Self.key
        )
        var session = Self.opened()
        let actions = session.received(SyncCodec.encode(.push(room: "r", pack: bytes)))
        #expect(actions.first.flatMap(Self.errorCode) == ErrorCode.forgedAuthor.rawValue)
        #expect(actions.last.map(Self.closeCode) == .policyViolation)
    }

    /// Stamps up to five minutes ahead of the server's clock are taken; one millisecond more is refused
    /// without closing, and so is the end of time.
    @Test func stampsAheadOfTheServersClockAreBounded() {
        let lead = SyncProtocol.maximumStampLeadMilliseconds
        var session = Self.opened()
        let atTheBound = Self.pack(ahead: lead)
        #expect(
            session.received(SyncCodec.encode(.push(room: "r", pack: atTheBound)))
                == [
                    .append(
                        room: "r",
                        pack: PackID(of: atTheBound),
                        bytes: atTheBound,
                        author: Self.key.replica,
                        snapshot: nil
                    )
                ]
        )
        for bytes in [Self.pack(seq: 2, ahead: lead + 1), Self.endOfTime()] {
            let actions = session.received(SyncCodec.encode(.push(room: "r", pack: bytes)))
            #expect(actions.count == 1)
            guard case .send(.error(let code, _, false, "r")) = actions.first else {
                Issue.record("expected a non-fatal refusal, got \(actions)")
                continue
            }
            #expect(code == ErrorCode.stampAhead.rawValue)
        }
        #expect(!session.isClosed)
    }

    /// A change stamped 2^64 − 1, the greatest stamp there is.
    static func endOfTime() -> [UInt8] {
        let change = BoardChange(
            id: ChangeID(replica: key.replica, seq: 3),
            stamp: Stamp(rawValue: .max),
            payload: BoardEdit(board: "main", operations: [.clear])
        )
        return PackCodec.encode(Pack(room: "r", changes: [ChangeCodec.encode(change)]), signedBy: key)
    }

    static func flipped(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var bytes = bytes
        bytes[index < 0 ? bytes.count + index : index] ^= 0x01
        return bytes
    }

    static func errorCode(_ action: ServerSession.Action) -> UInt32? {
        if case .send(.error(let code, _, _, _)) = action { code } else { nil }
    }

    @Test func shutdownClosesWithGoingAway() {
        var session = Self.opened()
        #expect(session.shutDown() == [.close(.goingAway, reason: "server shutting down")])
        #expect(session.shutDown().isEmpty)
    }

    static func closeCode(_ action: ServerSession.Action) -> CloseCode? {
        if case .close(let code, _) = action { code } else { nil }
    }
}
