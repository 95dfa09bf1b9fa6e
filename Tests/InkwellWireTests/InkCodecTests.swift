import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// Presence ink: the same `Points` bytes a change carries, decoded with the same checks.
@Suite struct InkCodecTests {
    @Test func inkRoundTripsAndIsTheBytesAChangeHoldsForTheSamePoints() throws {
        var random = SeededGenerator(seed: 21)
        let points = (0..<40).map { index in
            Point(Double(index) * 1.25, Double(Int.random(in: -800...800, using: &random)) / 8)
        }
        let pressures = (0..<40).map { _ in Float(UInt8.random(in: 0...255, using: &random)) / 255 }
        let ink = InkCodec.encode(points, pressures: pressures)
        let decoded = try InkCodec.decode(ink)
        #expect(decoded.points == points)
        #expect(decoded.pressures == pressures)
        let change = ChangeCodec.encode(
            BoardChange(
                id: ChangeID(replica: ReplicaID(high: 1, low: 2), seq: 1),
                stamp: Stamp(wallMilliseconds: 1),
                payload: BoardEdit(
                    board: "main",
                    operations: [
                        .addStroke(
                            StrokeStyle(colour: Colour(rgba: 0xFF), width: 2),
                            points: points,
                            pressures: pressures
                        )
                    ]
                )
            )
        )
        #expect((0...(change.count - ink.count)).contains { change[$0..<($0 + ink.count)].elementsEqual(ink) })
    }

    @Test func offGridInkWithoutPressureRoundTrips() throws {
        let points = [Point(0.1, 0.2), Point(1e-3, -7.77)]
        let decoded = try InkCodec.decode(InkCodec.encode(points))
        #expect(decoded.points == points && decoded.pressures == nil)
    }

    @Test func garbageAndOversizeInkAreRefused() {
        #expect(throws: BoardCodecError.malformed("points")) { try InkCodec.decode([0xFF, 0xFF]) }
        #expect(throws: BoardCodecError.tooLarge("presence.ink")) {
            try InkCodec.decode([UInt8](repeating: 0, count: SyncProtocol.maximumPresenceBytes + 1))
        }
    }
}
