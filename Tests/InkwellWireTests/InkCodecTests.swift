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

    /// The direct writer against the generated encoder, on random ink: on the grid and off it, with
    /// pressures on the 1/255 grid, off it, or none, empty and single points included.
    @Test func inkIsWrittenAsTheGeneratedEncoderWritesIt() throws {
        let seed = SeededGenerator.seedFromEnvironment()
        var random = SeededGenerator(seed: seed)
        for round in 0..<2_000 {
            let count = Int.random(in: 0...80, using: &random)
            let steps = [1.0, 2, 8, 64, 1024].randomElement(using: &random)!
            let points = (0..<count).map { _ in
                switch Int.random(in: 0..<20, using: &random) {
                case 0: Point(Double.random(in: -1e6...1e6, using: &random), 0.1)
                case 1: Point(0, -0.0)
                default:
                    Point(
                        Double(Int.random(in: -80_000...80_000, using: &random)) / steps,
                        Double(Int.random(in: -80_000...80_000, using: &random)) / steps
                    )
                }
            }
            let pressures: [Float]? =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: nil
                case 1: (0..<count).map { _ in Float(UInt8.random(in: 0...255, using: &random)) / 255 }
                default: (0..<count).map { _ in Float.random(in: 0...1, using: &random) }
                }
            let written = InkCodec.encode(points, pressures: pressures)
            #expect(
                written == InkCodec.generatedEncoding(points, pressures: pressures),
                "seed \(seed) (INKWELL_SEED), round \(round)"
            )
            let decoded = try InkCodec.decode(written)
            #expect(decoded.points == points, "seed \(seed), round \(round)")
        }
    }

    /// Ink encoded as it grows is, after every append, the ink encoded whole: appends of random sizes,
    /// points that need a finer grid later, points no grid holds, pressures on and off the 1/255 grid.
    @Test func inkEncodedAsItGrowsIsTheInkEncodedWhole() {
        let seed = SeededGenerator.seedFromEnvironment()
        var random = SeededGenerator(seed: seed)
        for round in 0..<300 {
            var encoder = InkEncoder()
            let withPressure = Bool.random(using: &random)
            let offGridPressure = Int.random(in: 0..<4, using: &random) == 0
            var steps = [1.0, 2, 8].randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                if Int.random(in: 0..<10, using: &random) == 0 { steps *= 2 }
                let added = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                    Int.random(in: 0..<300, using: &random) == 0
                        ? Point(Double.random(in: -10...10, using: &random), 1e-9)
                        : Point(
                            Double(Int.random(in: -9_000...9_000, using: &random)) / steps,
                            Double(Int.random(in: -9_000...9_000, using: &random)) / steps
                        )
                }
                let pressures = added.map { _ in
                    offGridPressure
                        ? Float.random(in: 0...1, using: &random)
                        : Float(UInt8.random(in: 0...255, using: &random)) / 255
                }
                encoder.append(added, pressures: withPressure ? pressures : nil)
                #expect(
                    encoder.encoded == InkCodec.encode(encoder.points, pressures: encoder.pressures),
                    "seed \(seed) (INKWELL_SEED), round \(round), \(encoder.points.count) points"
                )
            }
        }
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
