/// The name a kind of document files its changes under: `board` for the whiteboard, `model` for the
/// generic model document the food log keeps its days in, whatever an app chooses for its own.
///
/// The engine stores, syncs and orders changes of every type alike; only a replica that knows a type
/// applies its changes. A name is part of the data: once changes carry it, it never changes.
public struct DocumentType: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The type of a change that names none: every change written before types were named is a
    /// whiteboard change, and the whiteboard's changes leave the name out to save its bytes.
    public static let unnamed: DocumentType = "board"

    /// The type a change names by `writtenName`: ``unnamed`` when it writes none.
    public init(writtenName: String) {
        self.init(writtenName.isEmpty ? DocumentType.unnamed.rawValue : writtenName)
    }

    /// The name as a change or snapshot writes it: empty for ``unnamed``, which they leave out.
    public var writtenName: String { self == .unnamed ? "" : rawValue }

    public var description: String { rawValue }

    public static func < (lhs: DocumentType, rhs: DocumentType) -> Bool { lhs.rawValue < rhs.rawValue }
}
