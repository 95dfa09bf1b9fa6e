import Foundation
import InkwellGeometry
import InkwellSync
import InkwellTesting
import SwiftProtobuf
import Testing

@testable import InkwellBoard
@testable import InkwellWire

@Suite struct ChangeCodecTests {
    @Test func everyOperationRoundTrips() throws {
        for change in Samples.changes {
            #expect(try ChangeCodec.decode(ChangeCodec.encode(change), as: BoardEdit.self) == change)
        }
    }

    @Test func gridPointsAreResidualsAndOffGridPointsStayExact() throws {
        let snapped = Samples.wave
        #expect(PointCodec.grid(for: snapped) != nil)
        #expect(PointCodec.grid(for: [Point(3, 4), Point(5, -6)]) == 1)
        #expect(PointCodec.grid(for: [Point(0.5, 4)]) == 2)
        #expect(PointCodec.grid(for: [Point(0.1, 4)]) == nil)
        let offGrid = [Point(0.1, 1.0 / 3), Point(.pi, -.ulpOfOne)]
        let wire = OperationCodec.encode(offGrid, nil)
        #expect(wire.scale == 0)
        #expect(try OperationCodec.decode(wire).0 == offGrid)
    }

    @Test func gridIsTheCoarsestScaleThatHoldsEveryCoordinate() {
        // The reference: try each scale, coarsest first, as the codec once did.
        func reference(_ points: [Point]) -> UInt32? {
            PointCodec.scales.first { scale in
                let factor = Double(scale)
                return points.allSatisfy { point in
                    let x = point.x * factor
                    let y = point.y * factor
                    return x.rounded() == x && y.rounded() == y && abs(x) < PointCodec.maximumSteps
                        && abs(y) < PointCodec.maximumSteps
                }
            }
        }
        let seed: UInt64 = 41
        var generator = SplitMix64(seed: seed)
        let special: [Double] = [
            0, -0.0, 1, -1, 0.5, 1.0 / 1024, 1.0 / 2048, 0.1, .pi, .infinity, -.infinity, .nan,
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 0x1p52, 0x1p53, 0x1p42 + 0.5,
            0x1p43 - 0.125, 1e9, -1e9 - 0.125,
        ]
        for _ in 0..<5_000 {
            let points = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                func coordinate() -> Double {
                    if Int.random(in: 0..<4, using: &generator) == 0 {
                        return special.randomElement(using: &generator)!
                    }
                    let steps = Double(Int64.random(in: -1 << 40...1 << 40, using: &generator))
                    return steps / Double(1 << Int.random(in: 0...12, using: &generator))
                }
                return Point(coordinate(), coordinate())
            }
            #expect(PointCodec.grid(for: points) == reference(points), "seed \(seed): \(points)")
        }
    }

    @Test func randomBoardsRoundTripThroughTheWire() throws {
        var generator = SplitMix64(seed: 31)
        var model = WireBoardModel()
        for seq in 1...500 as ClosedRange<UInt64> {
            let change = model.nextChange(
                seq: seq,
                by: Samples.alice,
                stamp: Stamp(wallMilliseconds: seq),
                using: &generator
            )
            let decoded = try ChangeCodec.decode(ChangeCodec.encode(change), as: BoardEdit.self)
            #expect(decoded == change, "seed 31, seq \(seq)")
        }
    }

    @Test func directEncodingWritesTheGeneratedMessagesBytes() {
        for change in Samples.changes {
            #expect(ChangeCodec.encode(change) == ChangeCodec.generatedEncoding(change.encoded))
        }
        let seed: UInt64 = 43
        var generator = SplitMix64(seed: seed)
        var model = WireBoardModel()
        for seq in 1...2_000 as ClosedRange<UInt64> {
            let stamp = Stamp(
                rawValue: seq.isMultiple(of: 97) ? 0 : UInt64.random(in: 1...UInt64.max, using: &generator)
            )
            let replica = seq.isMultiple(of: 3) ? Samples.bob : Samples.alice
            let change = model.nextChange(seq: seq, by: replica, stamp: stamp, using: &generator)
            #expect(
                ChangeCodec.encode(change) == ChangeCodec.generatedEncoding(change.encoded),
                "seed \(seed), seq \(seq)"
            )
        }
        // Ink the model does not draw: empty, off the grid, huge, with both kinds of pressure, zero style.
        let inks: [([Point], [Float]?)] = [
            ([], nil), ([], []), ([Point(0, 0)], [0]), ([Point(0.1, -3), Point(1e-300, 2)], [0.3, 0.123]),
            ([Point(1e15, -1e15), Point(0.5, 0.25)], [1, 0.5]), (Samples.wave, Samples.wave.map { _ in 0.2 }),
            ([Point(-0.0, .leastNormalMagnitude)], nil),
        ]
        for (index, (points, pressures)) in inks.enumerated() {
            for style in [StrokeStyle(colour: Colour(rgba: 0), width: 0), StrokeStyle(colour: .black, width: -0.0)] {
                let change = Samples.change(
                    Samples.alice,
                    UInt64(index + 1),
                    [
                        .addStroke(style, points: points, pressures: pressures),
                        .appendPoints(Samples.foreignStroke, points: points, pressures: pressures),
                        .appendPoints(
                            StrokeID(change: ChangeID(replica: Samples.alice, seq: 1)),
                            points: points,
                            pressures: nil
                        ),
                        .unknown(kind: 42, bytes: [0xD2, 0x02, 0x00]),
                    ]
                )
                #expect(ChangeCodec.encode(change) == ChangeCodec.generatedEncoding(change.encoded), "ink \(index)")
            }
        }
    }

    @Test func directDecodingAgreesWithTheGeneratedDecoderOrDefersToIt() throws {
        let seed: UInt64 = 59
        var generator = SplitMix64(seed: seed)
        var model = WireBoardModel()
        func generatedFields(_ bytes: [UInt8]) -> ChangeFields? {
            guard let message = try? WireChange(serializedBytes: bytes) else { return nil }
            return ChangeFields(
                replica: ArraySlice(message.replica),
                seq: message.seq,
                stamp: message.stamp,
                document: message.document,
                type: message.type,
                schemaVersion: message.schemaVersion,
                operations: message.operations.map { Array($0) }
            )
        }
        func same(_ a: ChangeFields, _ b: ChangeFields) -> Bool {
            a.replica.elementsEqual(b.replica) && a.seq == b.seq && a.stamp == b.stamp && a.document == b.document
                && a.type == b.type
                && a.schemaVersion == b.schemaVersion && a.operationBytes == b.operationBytes
        }
        var changes = Samples.changes
        for seq in 1...1_000 as ClosedRange<UInt64> {
            let replica = seq.isMultiple(of: 3) ? Samples.bob : Samples.alice
            changes.append(
                model.nextChange(seq: seq, by: replica, stamp: Stamp(wallMilliseconds: seq), using: &generator)
            )
        }
        for (round, change) in changes.enumerated() {
            let bytes = ChangeCodec.encode(change)
            // Canonical bytes take the direct path, and every ink operation in them too.
            let fields = try #require(WireReader.change(bytes), "seed \(seed), round \(round)")
            #expect(same(fields, try #require(generatedFields(bytes))), "seed \(seed), round \(round)")
            for operation in fields.operationBytes {
                let generated = OperationCodec.decode(operation, in: change.id)
                switch generated {
                case .addStroke, .appendPoints:
                    #expect(WireReader.inkOperation(operation[...], in: change.id) == generated, "round \(round)")
                default:
                    #expect(WireReader.inkOperation(operation[...], in: change.id) == nil, "round \(round)")
                }
            }
            // As the generated decoder reads it (an undo of another replica's change does not survive the
            // wire, which carries only the seq: that is the format, not the reader).
            let reference = Change(
                id: change.id,
                stamp: change.stamp,
                payload: BoardEdit(
                    board: change.payload.board,
                    operations: fields.operationBytes.map { OperationCodec.decode($0, in: change.id) }
                )
            )
            #expect(try ChangeCodec.decode(bytes, as: BoardEdit.self) == reference, "seed \(seed), round \(round)")
            // Hostile variants: whatever the direct reader accepts, the generated decoder reads the same way.
            for variant in 0..<4 {
                var hostile = bytes
                switch variant {
                case 0:
                    hostile[Int.random(in: 0..<hostile.count, using: &generator)] ^= UInt8.random(
                        in: 1...255,
                        using: &generator
                    )
                case 1: hostile.removeLast(Int.random(in: 1...hostile.count, using: &generator))
                case 2: hostile += [0x98, 0x06, 0x07]
                default:
                    let at = Int.random(in: 0..<hostile.count, using: &generator)
                    hostile.insert(UInt8.random(in: 0...255, using: &generator), at: at)
                }
                if let direct = WireReader.change(hostile) {
                    let reference = try #require(generatedFields(hostile), "seed \(seed), round \(round): \(hostile)")
                    #expect(same(direct, reference), "seed \(seed), round \(round)")
                }
                for operation in generatedFields(hostile)?.operationBytes ?? [] {
                    if let direct = WireReader.inkOperation(operation[...], in: change.id) {
                        #expect(
                            direct == OperationCodec.decode(operation, in: change.id),
                            "seed \(seed), round \(round)"
                        )
                    }
                }
            }
        }
    }

    /// Names are read as ASCII after one pass, and as UTF-8 through the validator otherwise: both
    /// give the text, and bytes that are not UTF-8 give nil.
    @Test func namesAreTextWhetherASCIIOrNotAndInvalidUTF8IsRefused() throws {
        for name in ["", "board", "board-é", "доска ✏️", String(repeating: "x", count: 100)] {
            let bytes = [0x61] + Array(name.utf8) + [0x62]
            #expect(WireReader.text(bytes, 1..<(bytes.count - 1)) == name)
            var change = Samples.changes[0]
            change.payload.board = BoardID(name.isEmpty ? "b" : name)
            #expect(try ChangeCodec.decode(ChangeCodec.encode(change), as: BoardEdit.self) == change)
        }
        for invalid: [UInt8] in [[0xC3], [0x6D, 0xC3, 0x28], [0xFF, 0x61], [0xED, 0xA0, 0x80]] {
            #expect(WireReader.text(invalid, invalid.indices) == nil)
        }
    }

    @Test func unknownFieldsSurviveADecodeEncodeRoundTrip() throws {
        var encoded = ChangeCodec.encode(Samples.changes[0])
        // Field 99, varint 7: something a newer schema added.
        encoded += [0x98, 0x06, 0x07]
        let message = try WireChange(serializedBytes: encoded)
        let again: [UInt8] = try message.serializedBytes()
        #expect(again == encoded)
    }

    @Test func anUnknownOperationKindIsKeptIgnoredAndWrittenBackUnchanged() throws {
        var wire = try WireChange(serializedBytes: ChangeCodec.encode(Samples.changes[0]))
        // Operation field 42 (length-delimited, 3 bytes): a kind this code does not know.
        let future: [UInt8] = [0xD2, 0x02, 0x03, 0x01, 0x02, 0x03]
        wire.operations.append(Data(future))
        let bytes: [UInt8] = try wire.serializedBytes()
        let change = try ChangeCodec.decode(bytes, as: BoardEdit.self)
        #expect(change.payload.operations.last == .unknown(kind: 42, bytes: future))
        #expect(ChangeCodec.encode(change) == bytes)
        var board = BoardState(board: "main")
        board.apply(change)
        #expect(board.visibleStrokeCount == 1, "the known operation applied, the unknown one ignored")
    }

    @Test func anUnreadableOperationInsideAGoodChangeKeepsTheChange() throws {
        var wire = try WireChange(serializedBytes: ChangeCodec.encode(Samples.changes[0]))
        var append = WireAppendPoints()
        append.points.scale = 3  // not a power of two
        append.points.residuals = [1, 2]
        var operation = WireOperation()
        operation.kind = .appendPoints(append)
        wire.operations.append(try operation.serializedBytes())
        let change = try ChangeCodec.decode(try wire.serializedBytes(), as: BoardEdit.self)
        guard case .unknown(let kind, _) = change.payload.operations.last else {
            Issue.record("expected the bad operation to be kept as unknown")
            return
        }
        #expect(kind == 2)
    }

    @Test func malformedChangesGetTypedErrors() throws {
        #expect(throws: WireError.malformed("change")) {
            try ChangeCodec.decode([0xFF, 0xFF, 0xFF], as: BoardEdit.self)
        }
        var wire = try WireChange(serializedBytes: ChangeCodec.encode(Samples.changes[0]))
        wire.replica = Data([1, 2, 3])
        #expect(throws: WireError.invalidField("change.replica")) {
            try ChangeCodec.decode(try wire.serializedBytes(), as: BoardEdit.self)
        }
        wire.replica = Data(Samples.alice.bytes)
        wire.seq = 0
        #expect(throws: WireError.invalidField("change.seq")) {
            try ChangeCodec.decode(try wire.serializedBytes(), as: BoardEdit.self)
        }
        wire.seq = 1
        wire.schemaVersion = 9
        #expect(throws: WireError.futureSchema(9)) {
            try ChangeCodec.decode(try wire.serializedBytes(), as: BoardEdit.self)
        }
    }

    /// A seq past ``WireLimits/maximumSeq`` is refused by both readers, before a change log or a store
    /// could meet it: at `UInt64.max` a log's next seq does not exist.
    @Test func aSeqPastTheLimitIsRefusedBeforeAnyLogSeesIt() throws {
        var log = ChangeLog<BoardEdit>()
        for seq in [WireLimits.maximumSeq + 1, .max] {
            let canonical = ChangeCodec.encode(Samples.change(Samples.alice, seq: seq))
            // An unknown field sends the bytes to the generated decoder.
            for bytes in [canonical, canonical + [0x78, 0x01]] {
                #expect(throws: WireError.invalidField("change.seq")) {
                    try log.insert(try ChangeCodec.decode(bytes, as: BoardEdit.self))
                }
            }
        }
        #expect(log.gaps.isEmpty)
        #expect(log.isEmpty)
        let last = Samples.change(Samples.alice, seq: WireLimits.maximumSeq)
        #expect(try ChangeCodec.decode(ChangeCodec.encode(last), as: BoardEdit.self) == last)
    }

    @Test func residualsThatOverflowAreRejected() {
        #expect(throws: BoardCodecError.self) {
            try PointCodec.points(fromResiduals: [Int64.max, 0, Int64.max, 0], scale: 1)
        }
        #expect(throws: BoardCodecError.self) {
            try PointCodec.points(fromResiduals: [Int64(2e9), 0], scale: 1)
        }
    }

    /// The direct point reader (`WireReader.gridPoints`) against ``PointCodec/points(fromResiduals:scale:)``
    /// on residuals that walk to the board's edge, past it, and to the ends of `Int64`: both accept the
    /// same points and refuse the same rest.
    @Test func theDirectPointReaderAcceptsAndRefusesAsTheReferenceDoes() throws {
        let seed = wireTestSeed("theDirectPointReaderAcceptsAndRefusesAsTheReferenceDoes")
        var generator = SplitMix64(seed: seed)
        var outcomes = (accepted: 0, refused: 0, longAccepted: 0)
        for round in 0..<4_000 {
            let scale = PointCodec.scales.randomElement(using: &generator)!
            let edge = Int64(PointCodec.maximumCoordinate) * Int64(scale)
            // Mostly a few points, read through the stack; every tenth run longer than 64, read in place,
            // with an edge value in one run of two so that some are accepted.
            let long = round % 10 == 0
            let count = long ? Int.random(in: 65...120, using: &generator) : Int.random(in: 1...12, using: &generator)
            let edgeAt = long && Bool.random(using: &generator) ? Int.random(in: 0..<2 * count, using: &generator) : nil
            let residuals = (0..<2 * count).map { index -> Int64 in
                let kind =
                    long
                    ? (index == edgeAt ? Int.random(in: 0..<4, using: &generator) : 7)
                    : Int.random(in: 0..<8, using: &generator)
                return switch kind {
                case 0: edge + Int64.random(in: -2...2, using: &generator)
                case 1: -edge + Int64.random(in: -2...2, using: &generator)
                case 2: [Int64.max, Int64.min, Int64.max / 2, Int64.min / 2].randomElement(using: &generator)!
                case 3: Int64.random(in: -edge / 4...edge / 4, using: &generator)
                default: Int64.random(in: -40...40, using: &generator)
                }
            }
            var wire = WirePoints()
            wire.scale = scale
            wire.residuals = residuals
            let bytes: [UInt8] = try wire.serializedBytes()
            let reference = try? PointCodec.points(fromResiduals: residuals, scale: scale)
            let direct = WireReader.gridPoints(bytes[...], bytes.indices)
            #expect(direct == reference, "seed \(seed), round \(round): \(residuals) at scale \(scale)")
            if reference == nil { outcomes.refused += 1 } else { outcomes.accepted += 1 }
            if long, reference != nil { outcomes.longAccepted += 1 }
        }
        #expect(outcomes.accepted > 100 && outcomes.refused > 100)
        #expect(outcomes.longAccepted > 50, "long runs should be read, not only refused")
    }
}

/// The board's random operations, on the ink grid as real clients send them.
struct WireBoardModel {
    var board = BoardState(board: "main")
    var made: [ChangeID] = []

    mutating func apply(_ change: BoardChange) {
        made.append(change.id)
        board.apply(change)
    }

    /// A random change by `replica` at `seq`, already applied to the model.
    mutating func nextChange(
        seq: UInt64,
        by replica: ReplicaID,
        stamp: Stamp,
        using generator: inout some RandomNumberGenerator
    ) -> BoardChange {
        let position = OpStamp(stamp: stamp, change: ChangeID(replica: replica, seq: seq))
        let change = Change(
            id: position.change,
            stamp: stamp,
            payload: randomOperation(at: position, using: &generator)
        )
        apply(change)
        return change
    }

    func randomOperation(at position: OpStamp, using generator: inout some RandomNumberGenerator) -> BoardEdit {
        func points() -> [Point] {
            var point = Point(
                Double.random(in: -500...500, using: &generator),
                Double.random(in: -500...500, using: &generator)
            )
            return (0..<Int.random(in: 1...80, using: &generator)).map { _ in
                point =
                    point
                    + Point(Double.random(in: -9...9, using: &generator), Double.random(in: -9...9, using: &generator))
                return InkGrid.snap(point)
            }
        }
        let visible = Array(board.drawing)
        let target = visible.randomElement(using: &generator)?.id ?? StrokeID(change: position.change)
        let operation: BoardOperation
        switch Int.random(in: 0..<8, using: &generator) {
        case 0, 1:
            let drawn = points()
            let pressures =
                Bool.random(using: &generator)
                ? drawn.map { _ in InkGrid.snap(pressure: Float.random(in: 0...1, using: &generator)) } : nil
            operation = .addStroke(
                StrokeStyle(
                    colour: Colour(rgba: UInt32.random(in: 0...UInt32.max, using: &generator)),
                    width: Double.random(in: 0.5...30, using: &generator)
                ),
                points: drawn,
                pressures: pressures
            )
        case 2: operation = .appendPoints(target, points: points(), pressures: nil)
        case 3:
            operation = .erase(
                target,
                [
                    ParameterInterval(
                        Double.random(in: 0...5, using: &generator),
                        Double.random(in: 5...9, using: &generator)
                    )
                ]
            )
        case 4: operation = .set(target, .zOrder(Double.random(in: -9...9, using: &generator)))
        case 5: operation = .undo(made.randomElement(using: &generator) ?? position.change)
        case 6: operation = .redo(made.randomElement(using: &generator) ?? position.change)
        default: operation = .clear
        }
        return BoardEdit(board: "main", operations: [operation])
    }
}
