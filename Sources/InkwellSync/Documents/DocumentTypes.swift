/// The document types an app knows: what lets a replica read the changes it receives.
///
/// Changes of a type not listed here are stored and passed on untouched, and read by a version of
/// the app that lists it.
public struct DocumentTypes: Sendable {
    /// Reads a change of one type: `nil` when its schema is newer than this version's.
    private struct Reader: Sendable {
        let entities: @Sendable (EncodedChange) -> [String]?
        /// The inert changes among one type's changes, when the type's live document is registered.
        var inert: (@Sendable ([EncodedChange], VersionVector) -> [ChangeID])?
    }

    private var readers: [DocumentType: Reader] = [:]

    public init() {}

    /// The types `edits` name.
    public init(_ edits: [any DocumentEdit.Type]) {
        for edit in edits { register(edit) }
    }

    /// The types of `documents`, with their rules for which changes stop mattering.
    public init(documents: [any ReplicatedDocument.Type]) {
        for document in documents { register(document: document) }
    }

    /// Adds a type; a later registration of the same name replaces the earlier.
    public mutating func register<Edit: DocumentEdit>(_: Edit.Type) {
        readers[Edit.documentType] = Reader { change in
            change.decoded(as: Edit.self).map { $0.payload.entities(in: $0.id) }
        }
    }

    /// Adds a type by its live document, so that snapshots may leave out the changes the document says
    /// no longer matter (``ReplicatedDocument/inertChanges(among:through:)``).
    public mutating func register<Document: ReplicatedDocument>(document _: Document.Type) {
        register(Document.Edit.self)
        readers[Document.Edit.documentType]!.inert = { changes, cut in
            var documents: [String: [Change<Document.Edit>]] = [:]
            var unread: Set<String> = []
            for change in changes {
                if let typed = change.decoded(as: Document.Edit.self) {
                    documents[change.payload.document, default: []].append(typed)
                } else {
                    unread.insert(change.payload.document)
                }
            }
            // A change this version cannot read might still make others matter: its document keeps all.
            return documents.flatMap { name, typed -> [ChangeID] in
                guard !unread.contains(name) else { return [] }
                var document = Document(document: name)
                _ = document.apply(contentsOf: typed)
                return document.inertChanges(among: typed, through: cut)
            }
        }
    }

    /// The changes among `changes` inside `cut` that no longer matter, by their types' rules: none of a
    /// type registered without its document, or not registered.
    ///
    /// `changes` must be every change this replica holds of their documents, and `cut` a prefix of
    /// every timeline all of which it holds or dropped as inert before.
    ///
    /// - Complexity: O(size of the changes) to build each document, plus its rule's cost.
    public func inertChanges(among changes: [EncodedChange], through cut: VersionVector) -> Set<ChangeID> {
        var byType: [DocumentType: [EncodedChange]] = [:]
        for change in changes where readers[change.payload.type]?.inert != nil {
            byType[change.payload.type, default: []].append(change)
        }
        var inert: Set<ChangeID> = []
        for (type, changes) in byType { inert.formUnion(readers[type]!.inert!(changes, cut)) }
        return inert
    }

    /// The entities a change touches, as its type names them; none for a type or schema this version
    /// does not read.
    ///
    /// - Complexity: O(size of the change) for a known type.
    public func entities(of change: EncodedChange) -> [String] {
        readers[change.payload.type]?.entities(change) ?? []
    }
}
