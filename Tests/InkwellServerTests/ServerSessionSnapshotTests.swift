import InkwellSync
import InkwellWire
import Testing

@testable import InkwellBoard
@testable import InkwellServer

/// The session's rules for snapshots: a part is stored with what it claims, by an editor only; a
/// check is taken only from a follower and only when its signature holds; a client of protocol 3 is
/// told the room's early history is a snapshot it cannot read.
@Suite struct ServerSessionSnapshotTests {
    typealias Base = ServerSessionTests

    static func part(by key: AuthorKey = Base.key) -> [UInt8] {
        let change = BoardChange(
            id: ChangeID(replica: key.replica, seq: 1),
            stamp: Stamp(wallMilliseconds: Base.FixedClock().milliseconds),
            payload: BoardEdit(board: "main", operations: [.clear])
        )
        var cut = Cut()
        cut.include(change.id, change.stamp)
        return PackCodec.encodeSnapshot(
            room: "r",
            position: 3,
            cut: cut,
            changes: [ChangeCodec.encode(change)],
            signedBy: key
        )[0]
    }

    @Test func aSnapshotPartIsAppendedWithWhatItClaims() throws {
        var session = Base.opened()
        let part = Self.part()
        let actions = session.received(SyncCodec.encode(.push(room: "r", pack: part)))
        guard case .append(let room, let id, let bytes, let author, let cover?) = actions.first else {
            Issue.record("expected an append with a cover, got \(actions)")
            return
        }
        #expect(room == "r" && id == PackID(of: part) && bytes == part && author == Base.key.replica)
        #expect(cover.position == 3 && cover.parts == 1)
    }

    @Test func aViewerCannotPushASnapshot() {
        var session = ServerSession(server: Base.server, wallClock: Base.FixedClock())
        _ = session.received(Base.hello)
        _ = session.received(SyncCodec.encode(.subscribe(room: "r", after: 0, capability: "")))
        _ = session.authorized(room: "r", after: 0, capability: "", access: .guarded(Self.hashes))
        let actions = session.received(SyncCodec.encode(.push(room: "r", pack: Self.part())))
        #expect(actions.contains { if case .close(.viewOnly, _) = $0 { true } else { false } })
    }

    static let hashes = RoomAccess.Hashes(
        admin: [UInt8](repeating: 1, count: 32),
        edit: [UInt8](repeating: 2, count: 32),
        view: Capability.hash(of: "")
    )

    @Test func aCheckIsTakenFromAFollowerWhoseSignatureHolds() {
        var session = Base.opened()
        let id = SnapshotID(bytes: [UInt8](repeating: 4, count: 16))!
        let check = SnapshotCheck(room: "r", snapshot: id, signedBy: Base.key)
        let taken = session.received(SyncCodec.encode(.snapshotChecked(check)))
        #expect(taken == [.recordCheck(room: "r", snapshot: id, signer: Base.key.replica)])
        let elsewhere = SnapshotCheck(room: "other", snapshot: id, signedBy: Base.key)
        let refused = session.received(SyncCodec.encode(.snapshotChecked(elsewhere)))
        #expect(refused.count == 1 && !session.isClosed, "not a member: told so, not closed")
        let forged = SnapshotCheck(room: "r", snapshot: id, author: Base.other.publicKey, signature: check.signature)
        let closing = session.received(SyncCodec.encode(.snapshotChecked(forged)))
        #expect(closing.contains { if case .close(.invalidPayload, _) = $0 { true } else { false } })
        #expect(session.isClosed)
    }

    /// Each check costs a signature and a write: a connection that floods them is closed, as one that
    /// guesses rooms is.
    @Test func aFloodOfChecksClosesTheConnection() {
        var session = ServerSession(server: Base.server, wallClock: Base.FixedClock(), maximumRoomRequests: 3)
        _ = session.received(Base.hello)
        _ = session.received(SyncCodec.encode(.subscribe(room: "r", after: 0, capability: "")))
        _ = session.authorized(room: "r", after: 0, capability: "", access: .open)
        let check = SnapshotCheck(
            room: "r",
            snapshot: SnapshotID(bytes: [UInt8](repeating: 4, count: 16))!,
            signedBy: Base.key
        )
        for _ in 0..<3 {
            let actions = session.received(SyncCodec.encode(.snapshotChecked(check)))
            #expect(actions.count == 1 && !session.isClosed)
        }
        let closing = session.received(SyncCodec.encode(.snapshotChecked(check)))
        #expect(closing.contains { if case .close(.policyViolation, _) = $0 { true } else { false } })
        #expect(session.isClosed)
    }

    @Test func aProtocolThreeClientIsToldTheHistoryIsASnapshot() {
        var session = ServerSession(server: Base.server, wallClock: Base.FixedClock())
        _ = session.received(
            SyncCodec.encode(
                .hello(protocolVersion: 3, minimumProtocolVersion: 3, device: Base.device, agent: "old")
            )
        )
        #expect(session.protocolVersion == 3)
        _ = session.received(SyncCodec.encode(.subscribe(room: "r", after: 0, capability: "")))
        _ = session.authorized(room: "r", after: 0, capability: "", access: .open)
        let actions = session.historyCompacted(room: "r")
        #expect(actions.first == .stopFollowing(room: "r"))
        guard case .send(.error(let code, _, let fatal, let room)) = actions.last else {
            Issue.record("expected an error frame, got \(actions)")
            return
        }
        #expect(code == ErrorCode.historyCompacted.rawValue && !fatal && room == "r")
        #expect(session.rooms.isEmpty && !session.isClosed)
    }
}
