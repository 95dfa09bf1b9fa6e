/// The document types an app knows: what lets a replica read the changes it receives.
///
/// Changes of a type not listed here are stored and passed on untouched, and read by a version of
/// the app that lists it.
public struct DocumentTypes: Sendable {
    /// Reads a change of one type: `nil` when its schema is newer than this version's.
    private struct Reader: Sendable {
        let entities: @Sendable (EncodedChange) -> [String]?
    }

    private var readers: [DocumentType: Reader] = [:]

    public init() {}

    /// The types `edits` name.
    public init(_ edits: [any DocumentEdit.Type]) {
        for edit in edits { register(edit) }
    }

    /// Adds a type; a later registration of the same name replaces the earlier.
    public mutating func register<Edit: DocumentEdit>(_: Edit.Type) {
        readers[Edit.documentType] = Reader { change in
            change.decoded(as: Edit.self).map { $0.payload.entities(in: $0.id) }
        }
    }

    /// The entities a change touches, as its type names them; none for a type or schema this version
    /// does not read.
    ///
    /// - Complexity: O(size of the change) for a known type.
    public func entities(of change: EncodedChange) -> [String] {
        readers[change.payload.type]?.entities(change) ?? []
    }
}
