/// One operation on a named field of a ``ModelDocument``.
///
/// A field name holds a counter and a register side by side; an app uses one or the other. Names are
/// compared as UTF-8 bytes, not as Unicode text, so two spellings of one accented letter are two
/// fields on every replica alike.
public enum ModelOperation: Hashable, Sendable {
    /// Adds `by` (possibly negative) to the field's counter.
    case increment(field: String, by: Int64)
    /// Writes `value` into the field's register; the latest write in the total order holds.
    case assign(field: String, value: [UInt8])
    /// Empties the field's register, as a write of "no value".
    case remove(field: String)
    /// Bytes this version cannot read: a newer kind, a malformed message, or a name or value out of
    /// bounds. Kept and written back exactly as they came; no state reads them.
    case unknown([UInt8])

    /// The longest field name, in UTF-8 bytes.
    public static let maximumFieldBytes = 256
    /// The largest register value, in bytes.
    public static let maximumValueBytes = 64 << 10

    /// The field the operation names; `nil` for an unknown one.
    public var field: String? {
        switch self {
        case .increment(let field, _), .assign(let field, _), .remove(let field): field
        case .unknown: nil
        }
    }

    /// Whether a document applies it: a known kind whose name (1 to ``maximumFieldBytes`` bytes) and
    /// value (at most ``maximumValueBytes``) are in bounds. The codec reads any other as
    /// ``unknown(_:)``, and a document ignores one made in code, so every replica agrees.
    public var isApplicable: Bool {
        switch self {
        case .increment(let field, _), .remove(let field):
            Self.isValidName(field)
        case .assign(let field, let value):
            Self.isValidName(field) && value.count <= Self.maximumValueBytes
        case .unknown:
            false
        }
    }

    private static func isValidName(_ field: String) -> Bool {
        (1...maximumFieldBytes).contains(field.utf8.count)
    }
}
