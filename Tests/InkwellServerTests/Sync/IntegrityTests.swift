import Foundation
import InkwellBoard
import InkwellClient
import InkwellServer
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// The attacks of a client that knows the protocol, against a real server on a loopback port: nothing
/// it sends is stored or relayed, each is answered with its documented code, and honest peers beside it
/// keep syncing.
@Suite struct IntegrityTests {
    /// A signed pack of `key`'s changes `seqs` (or of `replica`, to forge), stamped `ahead` ms from now.
    static func pack(
        room: String,
        by key: AuthorKey,
        replica: ReplicaID? = nil,
        seqs: ClosedRange<UInt64> = 1...1,
        stamp: Stamp? = nil
    ) -> [UInt8] {
        PackCodec.encode(
            Pack(room: room, changes: changes(of: replica ?? key.replica, seqs: seqs, stamp: stamp)),
            signedBy: key
        )
    }

    /// Encoded changes of `replica`, stamped `stamp` or now.
    static func changes(of replica: ReplicaID, seqs: ClosedRange<UInt64>, stamp: Stamp? = nil) -> [[UInt8]] {
        let now = Stamp(wallMilliseconds: SystemWallClock().millisecondsSince1970())
        return seqs.map { seq in
            ChangeCodec.encode(
                BoardChange(
                    id: ChangeID(replica: replica, seq: seq),
                    stamp: stamp ?? now,
                    payload: BoardEdit(board: "main", operations: [.clear])
                )
            )
        }
    }

    /// Ids are hashes of the bytes: a pack made first from a victim's changes under another key cannot
    /// make the victim's pack look already stored. The victim's pack is acknowledged at its own bytes and
    /// reaches the room.
    @Test func aVictimsPackCannotBePreempted() async throws {
        var random = SeededGenerator(seed: 17)
        let server = try await RunningServer.start()
        let (victim, mallory) = (AuthorKey(using: &random), AuthorKey(using: &random))
        let honest = Self.pack(room: "room", by: victim, seqs: 1...2)
        let reader = try await server.peer()
        try await reader.subscribe("room")

        // Mallory knows what the victim will push, and pushes it first under its own key.
        let attacker = try await server.peer()
        try await attacker.send(
            .push(room: "room", pack: Self.pack(room: "room", by: mallory, replica: victim.replica, seqs: 1...2))
        )
        guard case .error(let code, _, true, _) = try await attacker.next(where: \.isError) else {
            throw TestFailure("no refusal")
        }
        #expect(code == ErrorCode.forgedAuthor.rawValue)
        #expect(await attacker.socket.closure.code == CloseCode.policyViolation.rawValue)

        let pusher = try await server.peer(device: victim.replica)
        try await pusher.send(.push(room: "room", pack: honest))
        #expect(try await pusher.next(where: \.isAck) == .ack(room: "room", pack: PackID(of: honest), serverSeq: 1))
        #expect(try await server.stored(room: "room").map(\.bytes) == [honest])
        let delivered = try await reader.next(where: \.isPacks)
        #expect(delivered == .packs(room: "room", packs: [StoredPack(serverSeq: 1, bytes: honest)], head: 1))
        await server.stop()
    }

    /// A log row whose id names other bytes (planted here beside the running server, as a damaged file or
    /// a hash collision would leave it): the push of the real pack is refused with 4002, and the stored
    /// pack stays as it is.
    @Test func aPushWhoseIdIsStoredWithOtherBytesIsRefusedWith4002() async throws {
        var random = SeededGenerator(seed: 20)
        let server = try await RunningServer.start()
        let key = AuthorKey(using: &random)
        let real = Self.pack(room: "room", by: key)
        let planted = Array(real.reversed())
        _ = try await server.withStore { store in
            try await store.append([PackLog.Push(room: "room", pack: PackID(of: real), bytes: planted)], watermarks: [])
        }
        let peer = try await server.peer(device: key.replica)
        try await peer.send(.push(room: "room", pack: real))
        guard case .error(let code, _, true, _) = try await peer.next(where: \.isError) else {
            throw TestFailure("no refusal")
        }
        #expect(code == ErrorCode.packConflict.rawValue)
        #expect(await peer.socket.closure.code == CloseCode.packConflict.rawValue)
        #expect(try await server.stored(room: "room").map(\.bytes) == [planted])
        await server.stop()
    }

    /// Each forgery closes its connection with its code; the log holds only what honest peers pushed, and
    /// a follower receives exactly that.
    @Test func forgedReplayedAndTruncatedPacksAreRefusedWhileHonestPeersSync() async throws {
        var random = SeededGenerator(seed: 18)
        let server = try await RunningServer.start()
        let alice = AuthorKey(using: &random)
        let mallory = AuthorKey(using: &random)
        let bob = try await server.peer()
        try await bob.subscribe("room")
        let writer = try await server.peer(device: alice.replica)
        var pushed: [[UInt8]] = []

        let alicesOtherRoom = Self.pack(room: "other", by: alice, seqs: 1...1)
        let truncated = Array(Self.pack(room: "room", by: mallory).dropLast(3))
        var flipped = Self.pack(room: "room", by: mallory)
        flipped[flipped.count - 10] ^= 0x20
        let ownAndForged = PackCodec.encode(
            Pack(
                room: "room",
                changes: Self.changes(of: mallory.replica, seqs: 1...2) + Self.changes(of: alice.replica, seqs: 9...9)
            ),
            signedBy: mallory
        )
        let attacks: [(String, [UInt8], ErrorCode, CloseCode)] = [
            (
                "a change of another replica", Self.pack(room: "room", by: mallory, replica: alice.replica),
                .forgedAuthor, .policyViolation
            ),
            ("a forged change mixed into an honest pack", ownAndForged, .forgedAuthor, .policyViolation),
            ("a pack replayed from another room", alicesOtherRoom, .wrongRoom, .policyViolation),
            ("a truncated signature", truncated, .malformedPack, .invalidPayload),
            ("a flipped signature bit", flipped, .badSignature, .invalidPayload),
        ]
        for (index, (name, bytes, code, close)) in attacks.enumerated() {
            // Honest traffic goes on between the attacks.
            let honest = Self.pack(room: "room", by: alice, seqs: UInt64(index + 1)...UInt64(index + 1))
            try await writer.send(.push(room: "room", pack: honest))
            _ = try await writer.next(where: \.isAck)
            pushed.append(honest)

            let attacker = try await server.peer()
            try await attacker.send(.push(room: "room", pack: bytes))
            guard case .error(let sent, _, true, _) = try await attacker.next(where: \.isError) else {
                throw TestFailure("\(name): no fatal error frame")
            }
            #expect(sent == code.rawValue, "\(name)")
            #expect(await attacker.socket.closure.code == close.rawValue, "\(name)")
        }
        #expect(try await server.stored(room: "room").map(\.bytes) == pushed)
        #expect(try await server.stored(room: "other").isEmpty)
        var received: [[UInt8]] = []
        while received.count < pushed.count {
            guard case .packs(_, let packs, _) = try await bob.next(where: \.isPacks) else { continue }
            received += packs.map(\.bytes)
        }
        #expect(received == pushed)
        #expect(try await bob.received(during: .milliseconds(200), where: \.isPacks).isEmpty)
        await server.stop()
    }

    /// A change stamped past the server's clock plus five minutes, the end of time included, is refused
    /// without closing: an honest device with a wrong clock pushes again later. The connection goes on.
    @Test func stampsPastTheLeadAreRefusedAndTheConnectionGoesOn() async throws {
        var random = SeededGenerator(seed: 19)
        let server = try await RunningServer.start()
        let key = AuthorKey(using: &random)
        let peer = try await server.peer(device: key.replica)
        let now = SystemWallClock().millisecondsSince1970()
        let tooLate = [
            Self.pack(room: "room", by: key, stamp: Stamp(rawValue: .max)),
            Self.pack(
                room: "room",
                by: key,
                stamp: Stamp(wallMilliseconds: now + SyncProtocol.maximumStampLeadMilliseconds + 60_000)
            ),
        ]
        for bytes in tooLate {
            try await peer.send(.push(room: "room", pack: bytes))
            guard case .error(let code, _, false, "room") = try await peer.next(where: \.isError) else {
                throw TestFailure("no refusal")
            }
            #expect(code == ErrorCode.stampAhead.rawValue)
        }
        let honest = Self.pack(room: "room", by: key)
        try await peer.send(.push(room: "room", pack: honest))
        #expect(try await peer.next(where: \.isAck) == .ack(room: "room", pack: PackID(of: honest), serverSeq: 1))
        #expect(try await server.stored(room: "room").map(\.bytes) == [honest])
        await server.stop()
    }
}
