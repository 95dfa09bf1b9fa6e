import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import SwiftProtobuf
import Testing

@testable import InkwellWire

@Suite struct ChangeCodecTests {
    @Test func everyOperationRoundTrips() throws {
        for change in Samples.changes {
            #expect(try ChangeCodec.decode(ChangeCodec.encode(change)) == change)
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

    @Test func randomBoardsRoundTripThroughTheWire() throws {
        var generator = SplitMix64(seed: 31)
        var model = WireBoardModel()
        for seq in 1...500 as ClosedRange<UInt64> {
            let position = OpStamp(
                stamp: Stamp(wallMilliseconds: seq),
                change: ChangeID(replica: Samples.alice, seq: seq)
            )
            let edit = model.randomOperation(at: position, using: &generator)
            let change = Change(id: position.change, stamp: position.stamp, payload: edit)
            let decoded = try ChangeCodec.decode(ChangeCodec.encode(change))
            #expect(decoded == change, "seed 31, seq \(seq)")
            model.apply(change)
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
        let change = try ChangeCodec.decode(bytes)
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
        let change = try ChangeCodec.decode(try wire.serializedBytes())
        guard case .unknown(let kind, _) = change.payload.operations.last else {
            Issue.record("expected the bad operation to be kept as unknown")
            return
        }
        #expect(kind == 2)
    }

    @Test func malformedChangesGetTypedErrors() throws {
        #expect(throws: WireError.malformed("change")) { try ChangeCodec.decode([0xFF, 0xFF, 0xFF]) }
        var wire = try WireChange(serializedBytes: ChangeCodec.encode(Samples.changes[0]))
        wire.replica = Data([1, 2, 3])
        #expect(throws: WireError.invalidField("change.replica")) { try ChangeCodec.decode(try wire.serializedBytes()) }
        wire.replica = Data(Samples.alice.bytes)
        wire.seq = 0
        #expect(throws: WireError.invalidField("change.seq")) { try ChangeCodec.decode(try wire.serializedBytes()) }
        wire.seq = 1
        wire.schemaVersion = 9
        #expect(throws: WireError.futureSchema(9)) { try ChangeCodec.decode(try wire.serializedBytes()) }
    }

    @Test func residualsThatOverflowAreRejected() {
        #expect(throws: WireError.self) {
            try PointCodec.points(fromResiduals: [Int64.max, 0, Int64.max, 0], scale: 1)
        }
        #expect(throws: WireError.self) {
            try PointCodec.points(fromResiduals: [Int64(2e9), 0], scale: 1)
        }
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
