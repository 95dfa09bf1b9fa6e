import InkwellBoard
import InkwellGeometry
import InkwellSync
import Testing

@testable import InkwellWire

@Suite struct BoardSnapshotTests {
    @Test func aSnapshotPlusItsTailRestoresTheSameBoard() throws {
        var generator = SplitMix64(seed: 12)
        var model = WireBoardModel()
        var changes: [BoardChange] = []
        for seq in 1...300 as ClosedRange<UInt64> {
            changes.append(
                model.nextChange(seq: seq, by: Samples.alice, stamp: Stamp(wallMilliseconds: seq), using: &generator)
            )
        }
        let snapshot = BoardSnapshot(room: "r", board: "main", changes: Array(changes.prefix(200)))
        #expect(snapshot.cut.vector == VersionVector([Samples.alice: 200]))
        for compression in [PackCodec.Compression.deflate, .none] {
            let decoded = try BoardSnapshot(decoding: snapshot.encoded(compression: compression))
            #expect(decoded.cut == snapshot.cut)
            #expect(decoded.changes == snapshot.changes)
            let restored = try decoded.restore(adding: changes.dropFirst(200).map(ChangeCodec.encode))
            #expect(restored.canonicalEncoding() == model.board.canonicalEncoding())
            #expect(restored.stateEncoding() == model.board.stateEncoding())
        }
    }

    @Test func damagedSnapshotsAreRejected() throws {
        let bytes = BoardSnapshot(room: "r", board: "main", changes: Array(Samples.changes.prefix(3))).encoded()
        #expect(throws: WireError.self) { try BoardSnapshot(decoding: Array(bytes.prefix(bytes.count / 2))) }
        #expect(throws: WireError.self) { try BoardSnapshot(decoding: [0x0A, 0xFF]) }
    }
}
