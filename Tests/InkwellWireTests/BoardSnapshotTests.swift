import InkwellBoard
import InkwellGeometry
import InkwellSync
import Testing

@testable import InkwellWire

@Suite struct DocumentSnapshotTests {
    @Test func aSnapshotPlusItsTailRestoresTheSameBoard() throws {
        var generator = SplitMix64(seed: 12)
        var model = WireBoardModel()
        var changes: [BoardChange] = []
        for seq in 1...300 as ClosedRange<UInt64> {
            changes.append(
                model.nextChange(seq: seq, by: Samples.alice, stamp: Stamp(wallMilliseconds: seq), using: &generator)
            )
        }
        let snapshot = DocumentSnapshot(room: "r", document: "main", changes: Array(changes.prefix(200)))
        #expect(snapshot.cut.vector == VersionVector([Samples.alice: 200]))
        for compression in [PackCodec.Compression.deflate, .none] {
            let decoded = try DocumentSnapshot(decoding: snapshot.encoded(compression: compression))
            #expect(decoded.cut == snapshot.cut)
            #expect(decoded.changes == snapshot.changes)
            let restored = try decoded.restore(
                as: BoardState.self,
                adding: changes.dropFirst(200).map(ChangeCodec.encode)
            )
            #expect(restored.canonicalEncoding() == model.board.canonicalEncoding())
            #expect(restored.stateEncoding() == model.board.stateEncoding())
        }
    }

    /// A cut is counted (``VersionVector/changeCount``) and stored as signed 64-bit seqs: one naming
    /// seqs past ``WireLimits/maximumSeq`` is refused as it is decoded.
    @Test func aCutPastTheSeqLimitIsRefused() throws {
        var cut = Cut()
        for (number, seq) in [(1, UInt64.max), (2, .max), (3, WireLimits.maximumSeq + 1)] as [(UInt64, UInt64)] {
            cut.include(ChangeID(replica: ReplicaID(high: number, low: 0), seq: seq), Stamp(rawValue: 9))
        }
        let bytes = DocumentSnapshot(
            room: "r",
            document: "main",
            type: .unnamed,
            schemaVersion: 1,
            cut: cut,
            changes: []
        ).encoded()
        #expect(throws: WireError.invalidField("snapshot.cut")) {
            let decoded = try DocumentSnapshot(decoding: bytes)
            #expect(decoded.cut.vector.changeCount > 0)
        }
    }

    @Test func damagedSnapshotsAreRejected() throws {
        let bytes = DocumentSnapshot(room: "r", document: "main", changes: Array(Samples.changes.prefix(3))).encoded()
        #expect(throws: WireError.self) { try DocumentSnapshot(decoding: Array(bytes.prefix(bytes.count / 2))) }
        #expect(throws: WireError.self) { try DocumentSnapshot(decoding: [0x0A, 0xFF]) }
    }

    /// A snapshot is read up to the limit it is given, on its bytes and on its columns once inflated;
    /// ``DocumentSnapshot/encodedWithStateSize(compression:)`` names the second.
    @Test func aSnapshotIsReadUpToTheLimitItIsGiven() throws {
        let snapshot = DocumentSnapshot(room: "r", document: "main", changes: Array(Samples.changes.prefix(40)))
        for compression in [PackCodec.Compression.deflate, .none] {
            let (bytes, stateSize) = snapshot.encodedWithStateSize(compression: compression)
            #expect(bytes == snapshot.encoded(compression: compression))
            let limit = max(bytes.count, stateSize)
            #expect(try DocumentSnapshot(decoding: bytes, maximumBytes: limit).changes == snapshot.changes)
            #expect(throws: WireError.self) { try DocumentSnapshot(decoding: bytes, maximumBytes: limit - 1) }
        }
    }
}
