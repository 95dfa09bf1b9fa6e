import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import Testing

@testable import InkwellClient
@testable import InkwellWire

/// The trust rule a device holds a whole snapshot to, against what it holds.
@Suite struct SnapshotReviewTests {
    static let mine = try! AuthorKey(rawRepresentation: [UInt8](repeating: 0x31, count: 32))
    static let theirs = try! AuthorKey(rawRepresentation: [UInt8](repeating: 0x32, count: 32))

    static func change(_ key: AuthorKey, _ seq: UInt64, colour: UInt32 = 1) -> [UInt8] {
        change(
            key,
            seq,
            [.addStroke(StrokeStyle(colour: Colour(rgba: colour), width: 1), points: [.init(0, 0)], pressures: nil)]
        )
    }

    static func change(_ key: AuthorKey, _ seq: UInt64, _ operations: [BoardOperation]) -> [UInt8] {
        ChangeCodec.encode(
            BoardChange(
                id: ChangeID(replica: key.replica, seq: seq),
                stamp: Stamp(wallMilliseconds: 1_800_000_000_000 + seq),
                payload: BoardEdit(board: "main", operations: operations)
            )
        )
    }

    /// `changes` as one snapshot by them, standing for `standingFor` too when given.
    static func snapshot(_ changes: [[UInt8]], standingFor: [[UInt8]] = []) throws -> RoomSnapshot {
        var cut = Cut()
        for bytes in changes + standingFor {
            let header = try ChangeCodec.header(of: bytes)
            cut.include(ChangeID(replica: header.replica, seq: header.seq), header.stamp)
        }
        let parts = PackCodec.encodeSnapshot(room: "r", position: 9, cut: cut, changes: changes, signedBy: theirs)
        var assembly = SnapshotAssembly(try PackCodec.decodeSnapshotPart(parts[0], room: "r"))
        for bytes in parts.dropFirst() { try assembly.add(try PackCodec.decodeSnapshotPart(bytes, room: "r")) }
        return try assembly.assembled()
    }

    static let whole = [change(theirs, 1), change(theirs, 2), change(theirs, 3), change(mine, 1), change(mine, 2)]

    static func review(
        _ snapshot: RoomSnapshot,
        held: [[UInt8]],
        required: VersionVector,
        ownMade: UInt64? = nil
    ) throws -> SnapshotReview.Verdict {
        var byID: [ChangeID: [UInt8]] = [:]
        for bytes in held {
            let header = try ChangeCodec.header(of: bytes)
            byID[ChangeID(replica: header.replica, seq: header.seq)] = bytes
        }
        return try SnapshotReview.review(
            snapshot,
            held: byID,
            required: required,
            own: mine.replica,
            ownMade: ownMade ?? byID.keys.filter { $0.replica == mine.replica }.map(\.seq).max() ?? 0,
            types: DocumentTypes(documents: [BoardState.self])
        )
    }

    @Test func aConsistentSnapshotBringsWhatWasNotHeld() throws {
        let verdict = try Self.review(
            try Self.snapshot(Self.whole),
            held: [Self.whole[0], Self.whole[3], Self.whole[4]],
            required: VersionVector([Self.theirs.replica: 1, Self.mine.replica: 1])
        )
        guard case .accepted(let new, _) = verdict else {
            Issue.record("refused: \(verdict)")
            return
        }
        #expect(Set(new.map(\.bytes)) == Set([Self.whole[1], Self.whole[2]]))
    }

    @Test func aSnapshotThatAltersAHeldChangeIsRefused() throws {
        let altered = [Self.change(Self.theirs, 1, colour: 9)] + Self.whole.dropFirst()
        let verdict = try Self.review(try Self.snapshot(altered), held: [Self.whole[0]], required: VersionVector())
        guard case .refused = verdict else {
            Issue.record("accepted an altered change")
            return
        }
    }

    @Test func aSnapshotThatLeavesOutWhatCameBeforeItsPositionIsRefused() throws {
        let short = Array(Self.whole.prefix(2)) + [Self.whole[3]]
        let verdict = try Self.review(
            try Self.snapshot(short),
            held: Self.whole,
            required: VersionVector([Self.theirs.replica: 3, Self.mine.replica: 2])
        )
        guard case .refused(_, let missingOwn) = verdict else {
            Issue.record("accepted a short snapshot")
            return
        }
        #expect(missingOwn == [ChangeID(replica: Self.mine.replica, seq: 2)], "my acknowledged change goes back out")
    }

    @Test func aSnapshotHoldingAChangeOfMineIDidNotMakeIsRefused() throws {
        let verdict = try Self.review(
            try Self.snapshot(Self.whole),
            held: [Self.whole[3]],
            required: VersionVector()
        )
        guard case .refused = verdict else {
            Issue.record("accepted a change of mine I never made")
            return
        }
    }

    /// A change of mine that my store left out as inert may come back in a snapshot: I made it, so it is
    /// neither refused nor taken as new.
    @Test func aSnapshotHoldingAChangeOfMineThatIDroppedIsAccepted() throws {
        let verdict = try Self.review(
            try Self.snapshot(Self.whole),
            held: [Self.whole[3]],
            required: VersionVector(),
            ownMade: 2
        )
        guard case .accepted(let new, _) = verdict else {
            Issue.record("refused a change of mine that I made")
            return
        }
        #expect(
            new.map(\.change.id)
                == Self.whole.prefix(3).map { try! ChangeCodec.header(of: $0) }.map {
                    ChangeID(replica: $0.replica, seq: $0.seq)
                }
        )
    }

    /// Their stroke, undone and settled, stopped mattering: a snapshot may leave it out, and one that
    /// leaves out a stroke that still shows is refused.
    @Test func aSnapshotMayLeaveOutOnlyWhatStoppedMattering() throws {
        let drawn = Self.change(Self.theirs, 1)
        let undone = Self.change(Self.theirs, 2, [.undo(ChangeID(replica: Self.theirs.replica, seq: 1))])
        let settled = Self.change(Self.theirs, 3, [.settle(through: 2, inactive: [1])])
        let mine = [Self.change(Self.mine, 1), Self.change(Self.mine, 2)]
        let held = [drawn, undone, settled] + mine

        let lean = try Self.snapshot([settled] + mine, standingFor: [drawn, undone])
        let verdict = try Self.review(lean, held: held, required: VersionVector())
        guard case .accepted(let new, let leftOut) = verdict else {
            Issue.record("refused: \(verdict)")
            return
        }
        #expect(new.isEmpty)
        #expect(leftOut == [1, 2].map { ChangeID(replica: Self.theirs.replica, seq: $0) })

        let lying = try Self.snapshot([drawn, undone, settled, mine[0]], standingFor: [mine[1]])
        guard case .refused(let reason, let missingOwn) = try Self.review(lying, held: held, required: VersionVector())
        else {
            Issue.record("accepted a snapshot that leaves out a stroke that still shows")
            return
        }
        #expect(reason.contains("still matters"))
        #expect(missingOwn == [ChangeID(replica: Self.mine.replica, seq: 2)], "my stroke goes back out")
    }

    /// A device that still holds a stroke deleted while it was away learns from the deletion the snapshot
    /// keeps that the stroke's add stopped mattering.
    @Test func aDeviceHoldingAnOldStrokeChecksItsDeletion() throws {
        let drawn = Self.change(Self.theirs, 1)
        let stroke = StrokeID(change: ChangeID(replica: Self.theirs.replica, seq: 1), index: 0)
        let deleted = Self.change(Self.theirs, 2, [.set(stroke, .deleted(true))])
        let settled = Self.change(Self.theirs, 3, [.settle(through: 2, inactive: [])])
        let lean = try Self.snapshot([deleted, settled], standingFor: [drawn])
        guard case .accepted(_, let leftOut) = try Self.review(lean, held: [drawn], required: VersionVector()) else {
            Issue.record("refused a snapshot whose proof it holds")
            return
        }
        #expect(leftOut == [ChangeID(replica: Self.theirs.replica, seq: 1)])
    }
}
