import InkwellServer
import InkwellSync
import InkwellWire
import Testing

/// The session's rules for capabilities: what a subscription may do, and what ends it.
@Suite struct ServerSessionAccessTests {
    static let admin = Capability.mint(.admin)
    static let edit = Capability.mint(.edit)
    static let view = Capability.mint(.view)
    static let hashes = RoomAccess.Hashes(admin: admin.hash, edit: edit.hash, view: view.hash)
    static let guarded = RoomAccess.guarded(hashes)

    static func session(maximumRooms: Int = 1_000, maximumRoomRequests: Int = 256) -> ServerSession {
        var session = ServerSession(
            server: ServerSessionTests.server,
            wallClock: ServerSessionTests.FixedClock(),
            maximumRooms: maximumRooms,
            maximumRoomRequests: maximumRoomRequests
        )
        _ = session.received(ServerSessionTests.hello)
        return session
    }

    static func subscribe(
        _ session: inout ServerSession,
        _ room: String,
        with capability: String,
        access: RoomAccess?
    )
        -> [ServerSession.Action]
    {
        let asked = session.received(SyncCodec.encode(.subscribe(room: room, after: 0, capability: capability)))
        guard asked == [.authorize(room: room, after: 0, capability: capability)] else { return asked }
        return session.authorized(room: room, after: 0, capability: capability, access: access)
    }

    static func fatalCode(_ actions: [ServerSession.Action]) -> (UInt32, CloseCode)? {
        guard case .send(.error(let code, _, true, _)) = actions.first, case .close(let close, _) = actions.last else {
            return nil
        }
        return (code, close)
    }

    @Test(arguments: [
        (edit.text, Rights.edit), (view.text, Rights.view), (admin.text, Rights.admin),
    ])
    func eachCapabilityGivesItsRights(capability: String, rights: Rights) {
        var session = Self.session()
        #expect(
            Self.subscribe(&session, "room", with: capability, access: Self.guarded) == [
                .send(.access(room: "room", rights: rights, guarded: true)), .catchUp(room: "room", after: 0),
            ]
        )
        #expect(session.mayEdit("room") == rights.mayEdit)
    }

    @Test func aWrongCapabilityOrAnUnknownRoomIsRefusedWithoutClosing() {
        var session = Self.session()
        let wrong = Self.subscribe(&session, "room", with: Capability.mint(.edit).text, access: Self.guarded)
        #expect(
            wrong.first.map {
                if case .send(.error(ErrorCode.notAllowed.rawValue, _, false, "room")) = $0 { true } else { false }
            }
                == true
        )
        let missing = Self.subscribe(&session, "nowhere", with: Self.edit.text, access: nil)
        #expect(
            missing.first.map {
                if case .send(.error(ErrorCode.noSuchRoom.rawValue, _, false, "nowhere")) = $0 { true } else { false }
            }
                == true
        )
        #expect(!session.isClosed)
        #expect(session.rooms.isEmpty, "a refused subscription follows nothing")
        #expect(!wrong.contains { if case .catchUp = $0 { true } else { false } })
    }

    @Test func aFollowerThatAsksAgainWithALinkThatNoLongerWorksStopsFollowing() {
        var session = Self.session()
        _ = Self.subscribe(&session, "room", with: Self.edit.text, access: Self.guarded)
        let again = Self.subscribe(&session, "room", with: Capability.mint(.edit).text, access: Self.guarded)
        #expect(again.first == .stopFollowing(room: "room"))
        #expect(session.rooms.isEmpty && !session.mayEdit("room"))
    }

    @Test func aViewOnlyConnectionMayNotPushOrSendPresence() {
        var pusher = Self.session()
        _ = Self.subscribe(&pusher, "room", with: Self.view.text, access: Self.guarded)
        let pushed = pusher.received(
            SyncCodec.encode(.push(room: "room", pack: ServerSessionTests.pack(room: "room")))
        )
        #expect(Self.fatalCode(pushed).map { $0.0 == ErrorCode.viewOnly.rawValue && $0.1 == .viewOnly } == true)

        var presenter = Self.session()
        _ = Self.subscribe(&presenter, "room", with: Self.view.text, access: Self.guarded)
        let presence = Presence(room: "room", device: ServerSessionTests.device, name: "", colour: 0)
        #expect(Self.fatalCode(presenter.received(SyncCodec.encode(ClientMessage.presence(presence))))?.1 == .viewOnly)
    }

    @Test func aPushToARoomNotFollowedIsTakenOnlyByAnOpenRoom() {
        let pack = ServerSessionTests.pack(room: "room")
        var guarded = Self.session()
        #expect(
            guarded.received(SyncCodec.encode(.push(room: "room", pack: pack))) == [
                .authorizePush(room: "room", pack: pack)
            ]
        )
        #expect(Self.fatalCode(guarded.pushAuthorized(room: "room", pack: pack, access: Self.guarded))?.1 == .viewOnly)
        var missing = Self.session()
        _ = missing.received(SyncCodec.encode(.push(room: "room", pack: pack)))
        #expect(Self.fatalCode(missing.pushAuthorized(room: "room", pack: pack, access: nil))?.1 == .viewOnly)
        var open = Self.session()
        _ = open.received(SyncCodec.encode(.push(room: "room", pack: pack)))
        #expect(
            open.pushAuthorized(room: "room", pack: pack, access: .open) == [
                .append(
                    room: "room",
                    pack: PackID(of: pack),
                    bytes: pack,
                    author: ServerSessionTests.key.replica,
                    snapshot: nil
                )
            ]
        )
        #expect(
            open.received(SyncCodec.encode(.push(room: "room", pack: pack))) == [
                .append(
                    room: "room",
                    pack: PackID(of: pack),
                    bytes: pack,
                    author: ServerSessionTests.key.replica,
                    snapshot: nil
                )
            ],
            "an open room, once looked up, takes the connection's pushes at once"
        )
    }

    @Test func aRotationClosesOnlyTheConnectionsOfTheReplacedCapability() {
        var viewer = Self.session()
        _ = Self.subscribe(&viewer, "room", with: Self.view.text, access: Self.guarded)
        var editor = Self.session()
        _ = Self.subscribe(&editor, "room", with: Self.edit.text, access: Self.guarded)
        let replaced: Set<[UInt8]> = [Self.view.hash]
        #expect(editor.revoke(room: "room", hashes: replaced).isEmpty)
        #expect(!editor.isClosed)
        let closed = viewer.revoke(room: "room", hashes: replaced)
        #expect(
            Self.fatalCode(closed).map { $0.0 == ErrorCode.capabilityRevoked.rawValue && $0.1 == .capabilityRevoked }
                == true
        )
        #expect(viewer.revoke(room: "other", hashes: replaced).isEmpty)
    }

    @Test func registeringAndRotatingAreAnsweredWithAccessOrARoomError() {
        var session = Self.session()
        let create = ClientMessage.createRoom(
            room: "room",
            adminHash: Self.admin.hash,
            editHash: Self.edit.hash,
            viewHash: Self.view.hash
        )
        #expect(session.received(SyncCodec.encode(create)) == [.register(room: "room", hashes: Self.hashes)])
        #expect(
            session.registered(room: "room", outcome: .created) == [
                .send(.access(room: "room", rights: .admin, guarded: true))
            ]
        )
        #expect(session.registered(room: "room", outcome: .alreadyRegistered).count == 1)
        guard
            case .send(.error(ErrorCode.roomExists.rawValue, _, false, "room")) = session.registered(
                room: "room",
                outcome: .taken
            ).first
        else {
            Issue.record("a taken id is a room error")
            return
        }
        let newView = Capability.mint(.view)
        let rotate = ClientMessage.rotateCapability(
            room: "room",
            admin: Self.admin.text,
            editHash: [],
            viewHash: newView.hash
        )
        #expect(
            session.received(SyncCodec.encode(rotate)) == [
                .rotate(room: "room", adminHash: Self.admin.hash, editHash: [], viewHash: newView.hash)
            ]
        )
        #expect(
            session.rotated(room: "room", outcome: .rotated(replaced: [Self.view.hash])) == [
                .send(.access(room: "room", rights: .admin, guarded: true)),
                .revoke(room: "room", hashes: [Self.view.hash]),
            ]
        )
        #expect(!session.isClosed)
    }

    @Test func guessingRoomsOrCapabilitiesEndsTheConnection() {
        var session = Self.session(maximumRoomRequests: 10)
        var closed = false
        for attempt in 0..<11 {
            let actions = Self.subscribe(
                &session,
                "room\(attempt)",
                with: Capability.mint(.edit).text,
                access: Self.guarded
            )
            if let (code, close) = Self.fatalCode(actions) {
                #expect(code == ErrorCode.rateLimited.rawValue && close == .policyViolation)
                #expect(attempt == 10, "the eleventh refusal closes")
                closed = true
            }
        }
        #expect(closed)
    }

    @Test func roomsPerConnectionAreBounded() {
        var session = Self.session(maximumRooms: 3)
        for room in ["a", "b", "c"] { _ = Self.subscribe(&session, room, with: "", access: .open) }
        #expect(session.rooms.count == 3)
        #expect(
            Self.subscribe(&session, "a", with: "", access: .open).count == 2,
            "a room followed again is not one more"
        )
        let fourth = session.received(SyncCodec.encode(.subscribe(room: "d", after: 0, capability: "")))
        #expect(Self.fatalCode(fourth).map { $0.0 == ErrorCode.tooManyRooms.rawValue } == true)
    }

    @Test func comparingHashesNeedsEveryByte() {
        #expect(RoomAccess.guarded(Self.hashes).rights(for: Self.edit.text) == .edit)
        #expect(RoomAccess.guarded(Self.hashes).rights(for: "") == .none)
        let altered = String(Self.edit.text.dropLast()) + (Self.edit.text.last == "A" ? "B" : "A")
        #expect(RoomAccess.guarded(Self.hashes).rights(for: altered) == .none)
        #expect(RoomAccess.open.rights(for: "anything") == .edit)
        #expect(Capability(Self.edit.text) == Self.edit)
        #expect(Capability("x" + Self.edit.text.dropFirst()) == nil, "an unknown kind letter")
        #expect(Capability(Self.edit.text + "A") == nil)
        #expect("\(Self.edit)" == "edit capability", "a capability's description never shows it")
    }
}
