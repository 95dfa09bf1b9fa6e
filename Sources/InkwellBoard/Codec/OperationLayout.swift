import InkwellGeometry
import InkwellSync

/// An operation measured before it is written, so that a change is written into one array of its exact
/// size: ink (`addStroke`, `appendPoints`) directly, nested messages and all, anything else as the
/// generated encoder's bytes.
///
/// Ink written through an array per level (the residuals, then the `Points`, the `AddStroke` and the
/// `Operation` messages, then the change) cost an allocation and a copy per level: about half of the
/// instructions of encoding a one-point change. The bytes are the same (`ChangeCodecTests` holds them to
/// the generated encoder's).
struct OperationLayout {
    private enum Body {
        case addStroke(StrokeStyle, PointsLayout, size: Int)
        case appendPoints(StrokeRef, PointsLayout, size: Int)
        case encoded([UInt8])
    }

    /// A `StrokeRef` as an append writes it: the replica only when it is not the change's own.
    private struct StrokeRef {
        let replica: ReplicaID?
        let seq: UInt64
        let index: UInt64

        var size: Int {
            (replica == nil ? 0 : 18) + (seq == 0 ? 0 : 1 + WireWriter.varintSize(seq))
                + (index == 0 ? 0 : 1 + WireWriter.varintSize(index))
        }
    }

    private let body: Body
    /// The size of the encoded `Operation` message.
    let size: Int

    /// - Complexity: O(points) for ink; O(size of the operation) otherwise.
    init(_ operation: BoardOperation, in change: ChangeID) {
        switch operation {
        case .addStroke(let style, let points, let pressures) where style.brush == .pen:
            let layout = PointsLayout(points, pressures)
            let inner =
                (style.colour.rgba == 0 ? 0 : 5) + (style.width.bitPattern == 0 ? 0 : 9)
                + WireWriter.fieldSize(layout.size)
            body = .addStroke(style, layout, size: inner)
            size = WireWriter.fieldSize(inner)
        case .appendPoints(let stroke, let points, let pressures):
            let reference = StrokeRef(
                replica: stroke.creator == change.replica ? nil : stroke.creator,
                seq: stroke.change.seq,
                index: UInt64(stroke.index)
            )
            let layout = PointsLayout(points, pressures)
            let inner = WireWriter.fieldSize(reference.size) + WireWriter.fieldSize(layout.size)
            body = .appendPoints(reference, layout, size: inner)
            size = WireWriter.fieldSize(inner)
        default:
            let bytes = Array(OperationCodec.encode(operation, in: change))
            body = .encoded(bytes)
            size = bytes.count
        }
    }

    /// Writes the `Operation` message, ``size`` bytes.
    func write(to wire: inout WireWriter) {
        switch body {
        case .addStroke(let style, let points, let size):
            wire.key(1, 2)
            wire.varint(UInt64(size))
            wire.fixed32Field(1, style.colour.rgba)
            wire.fixed64Field(2, style.width.bitPattern)
            wire.key(3, 2)
            wire.varint(UInt64(points.size))
            points.write(to: &wire)
        case .appendPoints(let reference, let points, let size):
            wire.key(2, 2)
            wire.varint(UInt64(size))
            wire.key(1, 2)
            wire.varint(UInt64(reference.size))
            if let replica = reference.replica { wire.field(1, replica) }
            wire.varintField(2, reference.seq)
            wire.varintField(3, reference.index)
            wire.key(2, 2)
            wire.varint(UInt64(points.size))
            points.write(to: &wire)
        case .encoded(let bytes):
            wire.append(bytes)
        }
    }
}

/// A `Points` message measured before it is written: on the grid, its residuals are worked out twice
/// (to count their bytes, then to write them) instead of being kept in an array.
struct PointsLayout {
    private let points: [Point]
    private let scale: UInt32?
    /// The length of the packed residuals, on the grid.
    private let residualBytes: Int
    private let pressures: [Float]?
    /// The pressures on the 1/255 grid, when they all are.
    private let pressureSteps: [UInt8]?
    /// The size of the encoded message.
    let size: Int

    init(_ points: [Point], _ pressures: [Float]?) {
        self.points = points
        scale = PointCodec.grid(for: points)
        var size = 0
        var residualBytes = 0
        if let scale {
            PointCodec.forEachResidual(of: points, scale: scale) {
                residualBytes += WireWriter.varintSize(WireWriter.zigZag($0))
            }
            size += 1 + WireWriter.varintSize(UInt64(scale))
            if residualBytes > 0 { size += WireWriter.fieldSize(residualBytes) }
        } else if !points.isEmpty {
            size += WireWriter.fieldSize(16 * points.count)
        }
        self.residualBytes = residualBytes
        if let pressures, !pressures.isEmpty {
            self.pressures = pressures
            pressureSteps = PointCodec.pressureBytes(pressures)
            size += WireWriter.fieldSize(pressureSteps?.count ?? 4 * pressures.count)
        } else {
            self.pressures = nil
            pressureSteps = nil
        }
        self.size = size
    }

    /// Writes the message, ``size`` bytes, as ``OperationCodec/encode(_:in:)`` would.
    func write(to wire: inout WireWriter) {
        if let scale {
            wire.key(1, 0)
            wire.varint(UInt64(scale))
            if residualBytes > 0 {
                wire.key(2, 2)
                wire.varint(UInt64(residualBytes))
                PointCodec.forEachResidual(of: points, scale: scale) { wire.varint(WireWriter.zigZag($0)) }
            }
        } else if !points.isEmpty {
            wire.key(3, 2)
            wire.varint(UInt64(16 * points.count))
            for point in points {
                wire.fixed64(point.x.bitPattern)
                wire.fixed64(point.y.bitPattern)
            }
        }
        guard let pressures else { return }
        Self.write(pressures: pressures, steps: pressureSteps, to: &wire)
    }

    /// Writes the pressures of a `Points` message: as bytes on the 1/255 grid when `steps` holds them,
    /// else as floats.
    static func write(pressures: [Float], steps: [UInt8]?, to wire: inout WireWriter) {
        if let steps {
            wire.field(4, steps)
        } else {
            wire.key(5, 2)
            wire.varint(UInt64(4 * pressures.count))
            for pressure in pressures { wire.fixed32(pressure.bitPattern) }
        }
    }
}
