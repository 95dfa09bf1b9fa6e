import Foundation
public import InkwellGeometry

/// One message of the simple JSON stroke protocol (`../shared/interop-protocol.md`) that other
/// drawing apps speak: `ADD` starts a stroke, `APPEND` extends it, `DELETE` hides part of it.
public enum InteropMessage: Hashable, Sendable {
    case add(identifier: String, weight: Double, colour: Colour, start: Point)
    case append(identifier: String, points: [Point])
    /// Hides `[startOffset, endOffset]`; nothing when `startOffset >= endOffset`.
    case delete(identifier: String, startOffset: Double, endOffset: Double)

    /// Larger messages are rejected before parsing.
    public static let maximumBytes = 1 << 20
    public static let maximumIdentifierBytes = 256
    public static let maximumPoints = BoardLimits.maximumPointsPerOperation

    public var identifier: String {
        switch self {
        case .add(let identifier, _, _, _), .append(let identifier, _), .delete(let identifier, _, _): identifier
        }
    }

    /// Decodes and validates one message. Anything malformed throws and yields nothing.
    public init(json: some Collection<UInt8>) throws(InteropError) {
        guard json.count <= Self.maximumBytes else { throw .tooLarge }
        let data = Data(json)
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: data)
        } catch {
            throw (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil
                ? .notJSON : .notAMessage
        }
        switch envelope.type {
        case "ADD":
            let body: AddBody = try Self.decode(data)
            self = .add(
                identifier: try Self.identifier(body.identifier),
                weight: try Self.weight(body.weight),
                colour: try Self.colour(body.colour),
                start: try Self.point(body.start, field: "start")
            )
        case "APPEND":
            let body: AppendBody = try Self.decode(data)
            guard let raw = body.points, !raw.isEmpty, raw.count <= Self.maximumPoints else {
                throw .badField("points")
            }
            var points: [Point] = []
            points.reserveCapacity(raw.count)
            for point in raw { points.append(try Self.point(point, field: "points")) }
            self = .append(identifier: try Self.identifier(body.identifier), points: points)
        case "DELETE":
            let body: DeleteBody = try Self.decode(data)
            self = .delete(
                identifier: try Self.identifier(body.identifier),
                startOffset: try Self.offset(body.start_offset, field: "start_offset"),
                endOffset: try Self.offset(body.end_offset, field: "end_offset")
            )
        default:
            throw .unknownType
        }
    }

    /// The message as compact JSON with sorted keys. Its numbers must be finite, as in every message
    /// decoded or described by ``InteropSession``: JSON has no NaN or infinity.
    public var json: [UInt8] {
        let object: [String: Any]
        switch self {
        case .add(let identifier, let weight, let colour, let start):
            object = [
                "type": "ADD", "identifier": identifier, "weight": weight,
                "colour": [Int(colour.red), Int(colour.green), Int(colour.blue)], "start": [start.x, start.y],
            ]
        case .append(let identifier, let points):
            object = ["type": "APPEND", "identifier": identifier, "points": points.map { [$0.x, $0.y] }]
        case .delete(let identifier, let startOffset, let endOffset):
            object = ["type": "DELETE", "identifier": identifier, "start_offset": startOffset, "end_offset": endOffset]
        }
        return Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }
}

// Field shapes: every field optional so that a missing one is reported by name.
private struct Envelope: Decodable { let type: String }
private struct AddBody: Decodable {
    let identifier: String?
    let weight: Double?
    let colour: [Double]?
    let start: [Double]?
}
private struct AppendBody: Decodable {
    let identifier: String?
    let points: [[Double]]?
}
private struct DeleteBody: Decodable {
    let identifier: String?
    let start_offset: Double?
    let end_offset: Double?
}

extension InteropMessage {
    private static func decode<Body: Decodable>(_ data: Data) throws(InteropError) -> Body {
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context) {
            // Foundation reports a number it cannot represent against the whole document.
            guard let field = context.codingPath.first?.stringValue else { throw .numberOutOfRange }
            throw .badField(field)
        } catch {
            throw .notAMessage
        }
    }

    private static func identifier(_ value: String?) throws(InteropError) -> String {
        guard let value, !value.isEmpty, value.utf8.count <= maximumIdentifierBytes else {
            throw .badField("identifier")
        }
        return value
    }

    private static func weight(_ value: Double?) throws(InteropError) -> Double {
        guard let value, value.isFinite, value > 0, value <= StrokeStyle.maximumWidth else { throw .badField("weight") }
        return value
    }

    private static func colour(_ value: [Double]?) throws(InteropError) -> Colour {
        guard let value, value.count == 3, value.allSatisfy({ (0...255).contains($0) && $0.rounded() == $0 }) else {
            throw .badField("colour")
        }
        return Colour(red: UInt8(value[0]), green: UInt8(value[1]), blue: UInt8(value[2]))
    }

    private static func point(_ value: [Double]?, field: String) throws(InteropError) -> Point {
        guard let value, value.count == 2,
            value.allSatisfy({ $0.isFinite && abs($0) <= BoardLimits.maximumCoordinate })
        else { throw .badField(field) }
        return Point(value[0], value[1])
    }

    private static func offset(_ value: Double?, field: String) throws(InteropError) -> Double {
        guard let value, value.isFinite, abs(value) <= Double(BoardLimits.maximumPointsPerOperation) * 1_000 else {
            throw .badField(field)
        }
        return value
    }
}
