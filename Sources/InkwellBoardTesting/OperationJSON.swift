import Foundation
public import InkwellBoard
public import InkwellGeometry
public import InkwellSync

/// The JSON form of board operations in the conformance vectors (`Conformance/board.json`, `wire.json`):
/// what `Web/js/model/operation.js` reads.
public enum OperationJSON {
    public static func operation(_ operation: BoardOperation) -> [String: Any] {
        switch operation {
        case .addStroke(let style, let points, let pressures):
            var json: [String: Any] = [
                "op": "addStroke", "colour": style.colour.rgba, "width": style.width, "points": Self.points(points),
                "pressures": pressures.map { $0.map(Double.init) } as Any? ?? NSNull(),
            ]
            // A pen's strokes say nothing of it, as before brushes.
            if style.brush != .pen { json["brush"] = style.brush.name }
            return json
        case .appendPoints(let id, let points, let pressures):
            return [
                "op": "appendPoints", "stroke": id.description, "points": Self.points(points),
                "pressures": pressures.map { $0.map(Double.init) } as Any? ?? NSNull(),
            ]
        case .erase(let id, let intervals):
            return ["op": "erase", "stroke": id.description, "intervals": intervals.map { [$0.lower, $0.upper] }]
        case .set(let id, let value):
            return ["op": "set", "stroke": id.description].merging(attribute(value)) { $1 }
        case .undo(let target):
            return ["op": "undo", "change": Self.id(target)]
        case .redo(let target):
            return ["op": "redo", "change": Self.id(target)]
        case .clear:
            return ["op": "clear"]
        case .settle(let through, let inactive):
            return ["op": "settle", "through": through, "inactive": inactive]
        case .addText(let style, let corner):
            return ["op": "addText", "colour": style.colour.rgba, "size": style.size, "at": [corner.x, corner.y]]
        case .insertText(let box, let anchor, let text):
            let after: Any = anchor.map { ["run": StrokeID($0.run).description, "offset": Int($0.offset)] } ?? NSNull()
            return ["op": "insertText", "box": box.description, "after": after, "text": text]
        case .deleteText(let box, let ranges):
            return [
                "op": "deleteText", "box": box.description,
                "ranges": ranges.map {
                    [
                        "run": StrokeID($0.run).description, "from": Int($0.offsets.lowerBound),
                        "to": Int($0.offsets.upperBound),
                    ]
                },
            ]
        case .addImage(let image, let corner):
            return [
                "op": "addImage", "blob": image.blob.map { String(format: "%02x", $0) }.joined(),
                "bytes": image.byteCount, "type": image.type, "at": [corner.x, corner.y], "width": image.width,
                "height": image.height,
            ]
        case .unknown(let kind, let bytes):
            return ["op": "unknown", "kind": kind, "bytes": bytes.map { String(format: "%02x", $0) }.joined()]
        }
    }

    public static func id(_ id: ChangeID) -> [String: Any] { ["replica": id.replica.description, "seq": id.seq] }

    public static func points(_ points: [Point]) -> [[Double]] { points.map { [$0.x, $0.y] } }

    public static func attribute(_ value: AttributeValue) -> [String: Any] {
        switch value {
        case .colour(let colour): ["attribute": "colour", "value": colour.rgba]
        case .width(let width): ["attribute": "width", "value": width]
        case .transform(let t): ["attribute": "transform", "value": [t.a, t.b, t.c, t.d, t.tx, t.ty]]
        case .zOrder(let z): ["attribute": "zOrder", "value": z]
        case .deleted(let deleted): ["attribute": "deleted", "value": deleted]
        case .fill(let fill): ["attribute": "fill", "value": fill.rgba]
        }
    }
}
