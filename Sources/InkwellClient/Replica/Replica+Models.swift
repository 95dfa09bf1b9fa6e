public import InkwellModel
import InkwellStore
public import InkwellSync

extension Replica {
    /// The model stored in `document`: opened and kept live, so later reads cost nothing.
    ///
    /// - Throws: ``ModelError`` for a type that is not a model of fields; what ``open(_:room:document:)``
    ///   throws.
    public func read<M: Model>(_: M.Type, room: String, document: String) async throws -> M {
        try M(try await open(ModelDocument.self, room: room, document: document))
    }

    /// Changes the model in `document` as `body` says, as one change: stored, queued and applied before
    /// this returns. Returns the model as the document holds it after.
    ///
    /// What is written is the difference `body` made, not the whole value: counters send their
    /// increments, so edits made elsewhere meanwhile add up instead of being overwritten.
    ///
    /// - Throws: ``ModelError``, or what ``edit(_:room:)`` throws (then nothing is stored).
    @discardableResult
    public func update<M: Model>(
        _: M.Type,
        room: String,
        document: String,
        _ body: @Sendable (inout M) throws -> Void
    ) async throws -> M {
        let before = try M(try await open(ModelDocument.self, room: room, document: document))
        var after = before
        try body(&after)
        let operations = try after.operations(since: before)
        if !operations.isEmpty {
            try await edit(ModelEdit(document: document, operations: operations), room: room)
        }
        return try M(state(of: ModelDocument.self, room: room, document: document) ?? ModelDocument(document: document))
    }

    /// The models of the room's documents whose names lie in `names` (the days of a log between two
    /// dates), by name: found through the store's index of documents, each read from its snapshot and
    /// the changes after it, none kept open.
    ///
    /// - Complexity: O(log d + k) to find k documents among d, plus reading each one.
    public func models<M: Model>(
        _: M.Type,
        room: String,
        names: ClosedRange<String>? = nil
    ) async throws -> [(document: String, model: M)] {
        try store.documents(room: room, type: ModelEdit.documentType, names: names).map { name in
            (name, try M(try load(ModelDocument.self, room: room, document: name)))
        }
    }
}
