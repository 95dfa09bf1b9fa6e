import Foundation
import InkwellGeometry
import InkwellSync
import SwiftProtobuf

/// One board operation to and from an encoded `Operation` message.
enum OperationCodec {
    static func encode(_ operation: BoardOperation, in change: ChangeID) -> Data {
        var wire = WireOperation()
        switch operation {
        case .addStroke(let style, let points, let pressures):
            var add = WireAddStroke()
            add.colour = style.colour.rgba
            add.width = style.width
            add.points = encode(points, pressures)
            add.brush = style.brush.rawValue
            wire.kind = .addStroke(add)
        case .appendPoints(let stroke, let points, let pressures):
            var append = WireAppendPoints()
            append.stroke = encode(stroke, in: change)
            append.points = encode(points, pressures)
            wire.kind = .appendPoints(append)
        case .erase(let stroke, let intervals):
            var erase = WireErase()
            erase.stroke = encode(stroke, in: change)
            erase.bounds = intervals.flatMap { [$0.lower, $0.upper] }
            wire.kind = .erase(erase)
        case .set(let stroke, let value):
            var set = WireSetAttribute()
            set.stroke = encode(stroke, in: change)
            switch value {
            case .colour(let colour): set.value = .colour(colour.rgba)
            case .width(let width): set.value = .width(width)
            case .transform(let t):
                var transform = WireTransform()
                (transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty) = (
                    t.a, t.b, t.c, t.d, t.tx, t.ty
                )
                set.value = .transform(transform)
            case .zOrder(let z): set.value = .zOrder(z)
            case .deleted(let deleted): set.value = .deleted(deleted)
            case .fill(let fill): set.value = .fill(fill.rgba)
            }
            wire.kind = .setAttribute(set)
        case .undo(let target):
            var reference = WireChangeRef()
            reference.seq = target.seq
            wire.kind = .undo(reference)
        case .redo(let target):
            var reference = WireChangeRef()
            reference.seq = target.seq
            wire.kind = .redo(reference)
        case .clear:
            wire.kind = .clear(WireClear())
        case .settle(let through, let inactive):
            var settle = WireSettle()
            settle.through = through
            settle.inactive = inactive
            wire.kind = .settle(settle)
        case .addText(let style, let point):
            wire.kind = .addText(encodeAddText(style, at: point))
        case .insertText(let box, let anchor, let text):
            wire.kind = .insertText(encodeInsertText(box, after: anchor, text: text, in: change))
        case .deleteText(let box, let ranges):
            wire.kind = .deleteText(encodeDeleteText(box, ranges, in: change))
        case .addImage(let image, let point):
            wire.kind = .addImage(encodeAddImage(image, at: point))
        case .unknown(_, let bytes):
            return Data(bytes)
        }
        return try! wire.serializedBytes()
    }

    /// Decodes one operation; anything unreadable becomes `.unknown`, kept and ignored.
    static func decode(_ bytes: [UInt8], in change: ChangeID) -> BoardOperation {
        do {
            let wire = try WireOperation(serializedBytes: bytes)
            if let operation = try decode(wire, in: change) { return operation }
        } catch {}
        return .unknown(kind: firstFieldNumber(bytes), bytes: bytes)
    }

    private static func decode(_ wire: WireOperation, in change: ChangeID) throws(BoardCodecError) -> BoardOperation? {
        switch wire.kind {
        case .addStroke(let add):
            let (points, pressures) = try decode(add.points)
            guard let brush = Brush(rawValue: add.brush) else { throw .invalidField("addStroke.brush") }
            return .addStroke(
                StrokeStyle(colour: Colour(rgba: add.colour), width: add.width, brush: brush),
                points: points,
                pressures: pressures
            )
        case .appendPoints(let append):
            let (points, pressures) = try decode(append.points)
            return .appendPoints(try decode(append.stroke, in: change), points: points, pressures: pressures)
        case .erase(let erase):
            guard erase.bounds.count.isMultiple(of: 2) else { throw .invalidField("erase.bounds") }
            let intervals = stride(from: 0, to: erase.bounds.count, by: 2).map {
                ParameterInterval(erase.bounds[$0], erase.bounds[$0 + 1])
            }
            return .erase(try decode(erase.stroke, in: change), intervals)
        case .setAttribute(let set):
            let stroke = try decode(set.stroke, in: change)
            switch set.value {
            case .colour(let rgba): return .set(stroke, .colour(Colour(rgba: rgba)))
            case .width(let width): return .set(stroke, .width(width))
            case .transform(let t):
                return .set(stroke, .transform(Transform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)))
            case .zOrder(let z): return .set(stroke, .zOrder(z))
            case .deleted(let deleted): return .set(stroke, .deleted(deleted))
            case .fill(let rgba): return .set(stroke, .fill(Colour(rgba: rgba)))
            case nil: return nil
            }
        case .undo(let reference):
            guard reference.seq >= 1 else { throw .invalidField("undo.seq") }
            return .undo(ChangeID(replica: change.replica, seq: reference.seq))
        case .redo(let reference):
            guard reference.seq >= 1 else { throw .invalidField("redo.seq") }
            return .redo(ChangeID(replica: change.replica, seq: reference.seq))
        case .clear:
            return .clear
        case .settle(let settle):
            return .settle(through: settle.through, inactive: settle.inactive)
        case .addText(let add):
            return decode(add)
        case .insertText(let insert):
            return try decode(insert, in: change)
        case .deleteText(let delete):
            return try decode(delete, in: change)
        case .addImage(let add):
            return decode(add)
        case nil:
            return nil
        }
    }

    static func encode(_ stroke: StrokeID, in change: ChangeID) -> WireStrokeRef {
        var reference = WireStrokeRef()
        if stroke.creator != change.replica { reference.replica = stroke.creator.bytesData }
        reference.seq = stroke.change.seq
        reference.index = stroke.index
        return reference
    }

    static func decode(_ reference: WireStrokeRef, in change: ChangeID) throws(BoardCodecError) -> StrokeID {
        let replica: ReplicaID
        if reference.replica.isEmpty {
            replica = change.replica
        } else if let named = ReplicaID(bytes: reference.replica) {
            replica = named
        } else {
            throw .invalidField("stroke.replica")
        }
        guard reference.seq >= 1 else { throw .invalidField("stroke.seq") }
        return StrokeID(change: ChangeID(replica: replica, seq: reference.seq), index: reference.index)
    }

    static func encode(_ points: [Point], _ pressures: [Float]?) -> WirePoints {
        var wire = WirePoints()
        if let scale = PointCodec.grid(for: points) {
            wire.scale = scale
            wire.residuals = PointCodec.residuals(of: points, scale: scale)
        } else {
            wire.raw = points.flatMap { [$0.x, $0.y] }
        }
        if let pressures {
            if let bytes = PointCodec.pressureBytes(pressures) {
                wire.pressures = Data(bytes)
            } else {
                wire.rawPressures = pressures
            }
        }
        return wire
    }

    static func decode(_ wire: WirePoints) throws(BoardCodecError) -> ([Point], [Float]?) {
        let points: [Point]
        if wire.scale == 0 {
            guard wire.raw.count.isMultiple(of: 2) else { throw .invalidField("points.raw") }
            guard wire.raw.count / 2 <= BoardLimits.maximumPointsPerOperation else { throw .tooLarge("points") }
            points = stride(from: 0, to: wire.raw.count, by: 2).map { Point(wire.raw[$0], wire.raw[$0 + 1]) }
        } else {
            points = try PointCodec.points(fromResiduals: wire.residuals, scale: wire.scale)
        }
        if !wire.pressures.isEmpty {
            guard wire.pressures.count == points.count else { throw .invalidField("points.pressures") }
            return (points, PointCodec.pressures(fromBytes: wire.pressures))
        }
        if !wire.rawPressures.isEmpty {
            guard wire.rawPressures.count == points.count else { throw .invalidField("points.raw_pressures") }
            return (points, wire.rawPressures)
        }
        return (points, nil)
    }

    /// The field number of the first field in an encoded message: an unknown operation's kind.
    static func firstFieldNumber(_ bytes: [UInt8]) -> UInt32 {
        var key: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes.prefix(10) {
            key |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return UInt32(truncatingIfNeeded: key >> 3) }
            shift += 7
        }
        return 0
    }
}
