public import InkwellSync

/// The bytes of one operation: a `ModelOperation` message of `Protos/inkwell/v1/model.proto`, written
/// with ``WireWriter`` (no generated code). Field numbers:
///
/// ```
/// ModelOperation  oneof kind: increment = 1, assign = 2, remove = 3 (each a message)
/// ModelIncrement  field = 1 (string), by = 2 (sint64, zig-zag)
/// ModelAssign     field = 1 (string), value = 2 (bytes)
/// ModelRemove     field = 1 (string)
/// ```
///
/// proto3 rules: fields in number order, empty strings and bytes and a zero `by` left out.
extension ModelOperation {
    private enum Kind {
        static let increment: UInt64 = 1
        static let assign: UInt64 = 2
        static let remove: UInt64 = 3
    }

    private enum Field {
        static let name: UInt64 = 1
        static let by: UInt64 = 2
        static let value: UInt64 = 2
    }

    /// The operation's bytes; an unknown one's exactly as they came.
    ///
    /// - Complexity: O(size of the operation).
    public var encoded: [UInt8] {
        let kind: UInt64
        var body = WireWriter(capacity: 16)
        switch self {
        case .increment(let field, let by):
            kind = Kind.increment
            Self.writeName(field, to: &body)
            body.varintField(Field.by, WireWriter.zigZag(by))
        case .assign(let field, let value):
            kind = Kind.assign
            Self.writeName(field, to: &body)
            if !value.isEmpty { body.field(Field.value, value) }
        case .remove(let field):
            kind = Kind.remove
            Self.writeName(field, to: &body)
        case .unknown(let bytes):
            return bytes
        }
        var message = WireWriter(capacity: body.bytes.count + 4)
        message.field(kind, body.bytes)
        return message.bytes
    }

    /// Reads an operation's bytes. Never fails: anything but what ``encoded`` writes for an
    /// applicable operation is ``unknown(_:)``, so an operation read here is written back byte for
    /// byte, and a non-canonical or out-of-bounds one is ignored the same way everywhere.
    ///
    /// - Complexity: O(size of the operation).
    public init(decoding bytes: ArraySlice<UInt8>) {
        if let operation = Self.read(bytes), operation.isApplicable, operation.encoded.elementsEqual(bytes) {
            self = operation
        } else {
            self = .unknown(Array(bytes))
        }
    }

    private static func writeName(_ field: String, to writer: inout WireWriter) {
        if !field.isEmpty { writer.field(Field.name, field.utf8) }
    }

    /// The operation the bytes spell, read leniently: the caller checks they are its canonical form.
    private static func read(_ bytes: ArraySlice<UInt8>) -> ModelOperation? {
        // Nothing applicable is larger: a name, a value, and a few bytes of keys and lengths.
        guard bytes.count <= maximumFieldBytes + maximumValueBytes + 16 else { return nil }
        var reader = WireReader(bytes)
        for kind in [Kind.increment, Kind.assign, Kind.remove] {
            guard let range = reader.lengthDelimited(kind) else { continue }
            guard reader.isAtEnd else { return nil }
            var body = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
            var field = ""
            if let name = body.lengthDelimited(Field.name) {
                guard let text = String(validating: bytes[name], as: UTF8.self) else { return nil }
                field = text
            }
            let operation: ModelOperation
            switch kind {
            case Kind.increment:
                var by: UInt64 = 0
                if body.key(Field.by, 0) {
                    guard let value = body.varint() else { return nil }
                    by = value
                }
                operation = .increment(field: field, by: Int64(bitPattern: (by >> 1) ^ (0 &- (by & 1))))
            case Kind.assign:
                let value = body.lengthDelimited(Field.value).map { Array(bytes[$0]) } ?? []
                operation = .assign(field: field, value: value)
            default:
                operation = .remove(field: field)
            }
            return body.isAtEnd ? operation : nil
        }
        return nil
    }
}
