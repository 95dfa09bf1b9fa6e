import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// The client's side of access: registration before subscription, nothing pushed before a grant or on
/// view rights, refusals reported, presence sealed in an encrypted room.
@Suite struct ClientSessionAccessTests {
    typealias Action = ClientSession.Action
    static let room = "Kq3Zt0aLw9PxYbN2mR7sVc"

    static func welcomed(_ session: inout ClientSession) -> [Action] {
        session.connecting()
        _ = session.connected()
        return session.received(ClientSessionTests.welcome).filter {
            if case .learnServerTime = $0 { false } else { true }
        }
    }

    @Test func aBoardThisDeviceMadeIsRegisteredBeforeItIsSubscribed() {
        var session = ClientSessionTests.session()
        let made = RoomCredentials.minted(key: nil)
        _ = session.join(Self.room, watermark: 4, credentials: made)
        #expect(
            Self.welcomed(&session) == [
                .send(
                    .createRoom(
                        room: Self.room,
                        adminHash: made.admin!.hash,
                        editHash: made.edit!.hash,
                        viewHash: made.view!.hash
                    )
                ),
                .send(.subscribe(room: Self.room, after: 4, capability: made.admin!.text)),
            ]
        )
        var joiner = ClientSessionTests.session()
        _ = joiner.join(Self.room, watermark: 0, credentials: .from(link: made.view!, key: nil))
        #expect(Self.welcomed(&joiner) == [.send(.subscribe(room: Self.room, after: 0, capability: made.view!.text))])
    }

    @Test func nothingIsPushedOnViewRightsAndRefusalsAreReported() throws {
        var random = SeededGenerator(seed: 41)
        var session = ClientSessionTests.session()
        _ = session.join(Self.room, watermark: 0)
        _ = Self.welcomed(&session)
        let key = AuthorKey(using: &random)
        let queued = [queuedChange(room: Self.room, replica: key.replica, seq: 1, payloadBytes: 20, using: &random)]
        #expect(session.plan(outbox: queued, keys: [key.replica: key]).isEmpty, "no grant yet")
        _ = session.received(.access(room: Self.room, rights: .view, guarded: true))
        #expect(session.plan(outbox: queued, keys: [key.replica: key]).isEmpty, "view rights")
        let refused = session.received(
            .error(code: ErrorCode.notAllowed.rawValue, message: "no", fatal: false, room: Self.room)
        )
        #expect(refused == [.refused(room: Self.room, code: ErrorCode.notAllowed.rawValue, message: "no")])
        #expect(session.progress(outboxBytes: 0).state == .synced, "a refused room is not left syncing for ever")
    }

    @Test func aFullRoomGetsItsPacksBackInTheOutboxAndNoMorePushesOnThisConnection() throws {
        var random = SeededGenerator(seed: 43)
        var session = ClientSessionTests.session()
        let other = "other-room"
        _ = session.join(Self.room, watermark: 0)
        _ = session.join(other, watermark: 0)
        _ = Self.welcomed(&session)
        _ = session.received(.access(room: Self.room, rights: .edit, guarded: false))
        _ = session.received(.access(room: other, rights: .edit, guarded: false))
        let key = AuthorKey(using: &random)
        let full = [queuedChange(room: Self.room, replica: key.replica, seq: 1, payloadBytes: 20, using: &random)]
        let elsewhere = [queuedChange(room: other, replica: key.replica, seq: 2, payloadBytes: 20, using: &random)]
        let pushed = session.plan(outbox: full, keys: [key.replica: key])
        #expect(pushed.count == 1)
        #expect(session.inFlight.map(\.room) == [Self.room])
        let answer = session.received(
            .error(code: ErrorCode.roomFull.rawValue, message: "full", fatal: false, room: Self.room)
        )
        #expect(answer.first == .refused(room: Self.room, code: ErrorCode.roomFull.rawValue, message: "full"))
        #expect(session.inFlight.isEmpty, "the refused pack is no longer waited for")
        #expect(session.rooms[Self.room]?.refusal?.code == ErrorCode.roomFull.rawValue)
        #expect(session.plan(outbox: full, keys: [key.replica: key]).isEmpty, "no more pushes to the full room")
        #expect(session.plan(outbox: full + elsewhere, keys: [key.replica: key]).count == 1, "other rooms go on")
        #expect(session.progress(outboxBytes: 20).state == .syncing, "what is left to push is not synced")
        // A new connection tries again.
        _ = Self.welcomed(&session)
        _ = session.received(.access(room: Self.room, rights: .edit, guarded: false))
        #expect(session.plan(outbox: full, keys: [key.replica: key]).count == 1)
    }

    @Test func presenceIsSealedInAnEncryptedRoomAndPlainPresenceThereIsDropped() throws {
        var random = SeededGenerator(seed: 42)
        let roomKey = RoomKey.generate(using: &random)
        var session = ClientSessionTests.session()
        _ = session.join(Self.room, watermark: 0, credentials: .from(link: Capability.mint(.edit), key: roomKey))
        _ = Self.welcomed(&session)
        _ = session.received(.access(room: Self.room, rights: .edit, guarded: true))
        let mine = Presence(room: Self.room, device: ClientSessionTests.device, name: "Ada", colour: 7, cursor: (1, 2))
        guard case .send(.presence(let sent)) = session.presence(mine).first else {
            Issue.record("presence not sent")
            return
        }
        #expect(sent.name.isEmpty && sent.cursor == nil && !sent.sealed.isEmpty, "only room and device stay readable")
        #expect(try sent.opened(with: roomKey) == mine)

        let other = ReplicaID(high: 0xB0B, low: 1)
        let theirs = Presence(room: Self.room, device: other, name: "Bob", colour: 1, cursor: (3, 4))
        #expect(session.received(.presence(theirs.sealed(with: roomKey))) == [.deliver(theirs)])
        #expect(session.received(.presence(theirs)).isEmpty, "plain presence in an encrypted room")
        #expect(
            session.received(.presence(theirs.sealed(with: RoomKey.generate(using: &random)))).isEmpty,
            "another key"
        )
    }
}
