import InkwellBoard
import InkwellGeometry
import InkwellSync

extension OperationCodec {
    /// The operation's encoded `Operation`: ink (`addStroke`, `appendPoints`) written directly with
    /// ``WireWriter``, the rest through the generated messages. Both give the same bytes.
    static func bytes(_ operation: BoardOperation, in change: ChangeID) -> [UInt8] {
        switch operation {
        case .addStroke(let style, let points, let pressures):
            var add = WireWriter(capacity: 32 + 2 * points.count)
            add.fixed32Field(1, style.colour.rgba)
            add.fixed64Field(2, style.width.bitPattern)
            add.field(3, pointsMessage(points, pressures))
            var operation = WireWriter(capacity: add.bytes.count + 4)
            operation.field(1, add.bytes)
            return operation.bytes
        case .appendPoints(let stroke, let points, let pressures):
            var reference = WireWriter(capacity: 24)
            if stroke.creator != change.replica { reference.field(1, stroke.creator) }
            reference.varintField(2, stroke.change.seq)
            reference.varintField(3, UInt64(stroke.index))
            var append = WireWriter(capacity: 40 + 2 * points.count)
            append.field(1, reference.bytes)
            append.field(2, pointsMessage(points, pressures))
            var operation = WireWriter(capacity: append.bytes.count + 4)
            operation.field(2, append.bytes)
            return operation.bytes
        default:
            return Array(encode(operation, in: change))
        }
    }

    /// An encoded `Points` message: what ``encode(_:_:)`` makes, written directly.
    static func pointsMessage(_ points: [Point], _ pressures: [Float]?) -> [UInt8] {
        var wire = WireWriter(capacity: 16 + 3 * points.count)
        if let scale = PointCodec.grid(for: points) {
            wire.key(1, 0)
            wire.varint(UInt64(scale))
            wire.packedSignedVarints(2, PointCodec.residuals(of: points, scale: scale))
        } else if !points.isEmpty {
            wire.key(3, 2)
            wire.varint(UInt64(16 * points.count))
            for point in points {
                wire.fixed64(point.x.bitPattern)
                wire.fixed64(point.y.bitPattern)
            }
        }
        guard let pressures, !pressures.isEmpty else { return wire.bytes }
        if let bytes = PointCodec.pressureBytes(pressures) {
            wire.field(4, bytes)
        } else {
            wire.key(5, 2)
            wire.varint(UInt64(4 * pressures.count))
            for pressure in pressures { wire.fixed32(pressure.bitPattern) }
        }
        return wire.bytes
    }
}
