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
    static let pack = PackCodec.encode(
        Pack(id: PackID(high: 3, low: 4), entries: [.init(room: "r", change: [1, 2, 3])])
    )

    static func opened() -> ServerSession {
        var session = ServerSession(server: server)
        _ = session.received(hello)
        return session
    }

    @Test func helloIsAnsweredWithWelcome() {
        var session = ServerSession(server: Self.server)
        #expect(
            session.received(Self.hello)
                == [
                    .send(
                        .welcome(
                            protocolVersion: SyncProtocol.version,
                            server: Self.server,
                            maximumFrameBytes: UInt32(SyncProtocol.maximumFrameBytes)
                        )
                    )
                ]
        )
        #expect(session.device == Self.device)
    }

    @Test func anythingBeforeHelloClosesTheConnection() {
        var session = ServerSession(server: Self.server)
        let actions = session.received(SyncCodec.encode(.subscribe(room: "r", after: 0)))
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
        #expect(message.contains("please update the app"))
        #expect(actions.last.map { if case .close(.unsupportedVersion, _) = $0 { true } else { false } } == true)
    }

    @Test func aNewerClientIsSpokenToInTheNewestCommonVersion() {
        var session = ServerSession(server: Self.server)
        let actions = session.received(
            SyncCodec.encode(.hello(protocolVersion: 9, minimumProtocolVersion: 1, device: Self.device, agent: "new"))
        )
        #expect(
            actions == [
                .send(
                    .welcome(
                        protocolVersion: 1,
                        server: Self.server,
                        maximumFrameBytes: UInt32(SyncProtocol.maximumFrameBytes)
                    )
                )
            ]
        )
    }

    @Test func subscribingCatchesUpAndPushedPacksAreAcknowledgedOnlyWhenStored() {
        var session = Self.opened()
        #expect(session.received(SyncCodec.encode(.subscribe(room: "r", after: 7))) == [.catchUp(room: "r", after: 7)])
        #expect(session.rooms == ["r"])
        let push = session.received(SyncCodec.encode(.push(room: "r", pack: Self.pack)))
        #expect(
            push == [.append(room: "r", pack: PackID(high: 3, low: 4), bytes: Self.pack)],
            "no ack before it is durable"
        )
        #expect(
            session.stored(room: "r", pack: PackID(high: 3, low: 4), serverSeq: 8) == [
                .send(.ack(room: "r", pack: PackID(high: 3, low: 4), serverSeq: 8))
            ]
        )
        #expect(session.received(SyncCodec.encode(.unsubscribe(room: "r"))) == [.stopFollowing(room: "r")])
    }

    @Test func presenceIsRelayedOnlyForFollowedRoomsAndOnlyAsOneself() {
        var session = Self.opened()
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
        _ = session.received(SyncCodec.encode(.subscribe(room: "r", after: 0)))
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
            Self.hello, SyncCodec.encode(.subscribe(room: "r", after: 1)),
            SyncCodec.encode(.push(room: "r", pack: Self.pack)),
        ]
        var closed = 0
        for _ in 0..<5_000 {
            var session = Bool.random(using: &generator) ? Self.opened() : ServerSession(server: Self.server)
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

    @Test func shutdownClosesWithGoingAway() {
        var session = Self.opened()
        #expect(session.shutDown() == [.close(.goingAway, reason: "server shutting down")])
        #expect(session.shutDown().isEmpty)
    }

    static func closeCode(_ action: ServerSession.Action) -> CloseCode? {
        if case .close(let code, _) = action { code } else { nil }
    }
}
