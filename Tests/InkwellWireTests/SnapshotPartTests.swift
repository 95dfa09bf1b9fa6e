import InkwellSync
import Testing

@testable import InkwellBoard
@testable import InkwellWire

/// Room snapshots cut into parts and put together again, in any order, with repeats, plain or sealed;
/// and the boundary between snapshot parts and packs, which no reader may cross.
@Suite struct SnapshotPartTests {
    static let room = SnapshotVectors.room

    /// A history of `replicas` timelines, each contiguous from 1.
    static func history(seed: UInt64, replicas: Int, count: Int) -> [BoardChange] {
        var generator = SplitMix64(seed: seed)
        let keys = (0..<replicas).map { _ in AuthorKey(using: &generator) }
        var seqs = [UInt64](repeating: 0, count: replicas)
        return WireVectors.randomChanges(seed: seed, count: count).map { change in
            let index = Int(generator.next() % UInt64(replicas))
            seqs[index] += 1
            return Change(
                id: ChangeID(replica: keys[index].replica, seq: seqs[index]),
                stamp: change.stamp,
                payload: change.payload
            )
        }
    }

    @Test(arguments: [(1, false), (2, true), (3, false), (4, true), (5, false), (6, true)])
    func partsInAnyOrderWithRepeatsMakeTheWholeSnapshot(seed: UInt64, sealed: Bool) throws {
        print("seed \(seed)")
        var generator = SplitMix64(seed: seed &+ 1_000)
        let changes = Self.history(seed: seed, replicas: 1 + Int(seed % 4), count: 50 + Int(seed) * 40)
        let author = AuthorKey(using: &generator)
        // The author's own timeline must be among the snapshot's.
        let own = Change(
            id: ChangeID(replica: author.replica, seq: 1),
            stamp: Stamp(rawValue: 1),
            payload: BoardEdit(board: "main", operations: [.clear])
        )
        let all = changes + [own]
        let cut = SnapshotVectors.cut(of: all)
        let key: RoomKey? = sealed ? SealVectors.key : nil
        let parts = PackCodec.encodeSnapshot(
            room: Self.room,
            position: 40,
            cut: cut,
            changes: all.map(ChangeCodec.encode),
            signedBy: author,
            sealedWith: key,
            partBodyBytes: 1_000 + Int(generator.next() % 3_000)
        )
        #expect(parts.count > 1, "cut into several parts")
        var order = parts + parts.prefix(2)
        order.shuffle(using: &generator)
        var assembly: SnapshotAssembly?
        for bytes in order {
            let part = try PackCodec.decodeSnapshotPart(bytes, room: Self.room, key: key)
            #expect(part.author == author.replica && part.cover.cut == cut && part.cover.position == 40)
            if assembly == nil { assembly = SnapshotAssembly(part) } else { try assembly!.add(part) }
        }
        let snapshot = try #require(assembly).assembled()
        #expect(Set(snapshot.changes) == Set(all.map(ChangeCodec.encode)))
        #expect(snapshot.changes.count == all.count && snapshot.parts.count == parts.count)
        // A relay reads the same claim without the key.
        let relayed = try PackCodec.validate(parts[0], room: Self.room)
        #expect(relayed.snapshot?.cut == cut && relayed.author == author.replica)
    }

    @Test func aSnapshotPartIsNeverReadAsAPackNorAPackAsAPart() throws {
        let changes = SnapshotVectors.history(6, seed: 41)
        let part = SnapshotVectors.part(changes, cut: SnapshotVectors.cut(of: changes))
        #expect(throws: WireError.snapshotPart) { try PackCodec.decode(part, room: Self.room) }
        let mine = changes.filter { $0.id.replica == SnapshotVectors.author.replica }
        let pack = PackCodec.encode(
            Pack(room: Self.room, changes: mine.map(ChangeCodec.encode)),
            signedBy: SnapshotVectors.author
        )
        #expect(throws: WireError.notSnapshot) { try PackCodec.decodeSnapshotPart(pack, room: Self.room) }
        #expect(try PackCodec.validate(pack, room: Self.room).snapshot == nil)
    }

    /// A relay refuses a plain part holding a change its cut does not name, as a receiver does; a cut
    /// short or altered part fails its signature.
    @Test func aRelayChecksWhatItCanOfAPart() throws {
        let changes = SnapshotVectors.history(8, seed: 42)
        var short = Cut()
        for change in changes where change.id.seq < 2 { short.include(change.id, change.stamp) }
        let lying = SnapshotVectors.part(changes, cut: short)
        #expect(throws: WireError.invalidSnapshot("it holds a change its cut does not name")) {
            try PackCodec.validate(lying, room: Self.room)
        }
        let honest = SnapshotVectors.part(changes, cut: SnapshotVectors.cut(of: changes))
        #expect(throws: WireError.self) { try PackCodec.validate(Array(honest.dropLast(10)), room: Self.room) }
        var altered = honest
        altered[altered.count / 2] ^= 1
        #expect(throws: WireError.self) { try PackCodec.decodeSnapshotPart(altered, room: Self.room) }
    }

    @Test func aCheckVerifiesOnlyForItsRoomSnapshotAndSigner() {
        let id = SnapshotVectors.id
        let check = SnapshotCheck(room: Self.room, snapshot: id, signedBy: SnapshotVectors.author)
        #expect(check.signer() == SnapshotVectors.author.replica)
        let otherRoom = SnapshotCheck(room: "room-b", snapshot: id, author: check.author, signature: check.signature)
        #expect(otherRoom.signer() == nil)
        let otherSnapshot = SnapshotCheck(
            room: Self.room,
            snapshot: SnapshotID(bytes: [UInt8](repeating: 1, count: 16))!,
            author: check.author,
            signature: check.signature
        )
        #expect(otherSnapshot.signer() == nil)
        let otherSigner = SnapshotCheck(
            room: Self.room,
            snapshot: id,
            author: SnapshotVectors.other.publicKey,
            signature: check.signature
        )
        #expect(otherSigner.signer() == nil)
    }
}
