public import InkwellSync
public import InkwellWire

extension StoredChange {
    /// A change made on this device, as the store keeps it: encoded by its type at its current schema,
    /// indexed by the entities it touches.
    ///
    /// - Complexity: O(size of the change).
    public init<Edit: DocumentEdit>(_ change: Change<Edit>, room: String) {
        self.init(
            id: change.id,
            stamp: change.stamp,
            room: room,
            document: change.payload.document,
            type: Edit.documentType,
            schemaVersion: Edit.schemaVersion,
            payload: ChangeCodec.encode(change),
            entities: change.payload.entities(in: change.id)
        )
    }

    /// A change decoded from `encoded`, kept as exactly those bytes: stores and servers forward what
    /// they received, so a change re-encoded by another version never turns into a conflicting
    /// duplicate. `entities` are what its type says it touches, when this version knows the type.
    public init(_ change: EncodedChange, room: String, encoded: [UInt8], entities: [String] = []) {
        self.init(
            id: change.id,
            stamp: change.stamp,
            room: room,
            document: change.payload.document,
            type: change.payload.type,
            schemaVersion: change.payload.schemaVersion,
            payload: encoded,
            entities: entities
        )
    }

    /// Decodes the payload, and checks that it is the change the metadata says it is.
    ///
    /// - Throws: ``WireError`` when the payload does not decode, or when its id, stamp or document
    ///   disagree with the stored metadata.
    public func decoded() throws(WireError) -> EncodedChange {
        let change = try ChangeCodec.decode(payload)
        guard change.id == id else { throw .invalidField("change.id") }
        guard change.stamp == stamp else { throw .invalidField("change.stamp") }
        guard change.payload.document == document else { throw .invalidField("change.document") }
        return change
    }

    /// The change as its type reads it.
    ///
    /// - Throws: what ``decoded()`` throws; ``WireError/otherType(_:)`` for a change of another type and
    ///   ``WireError/futureSchema(_:)`` for one newer than `Edit` reads.
    public func decoded<Edit: DocumentEdit>(as _: Edit.Type) throws(WireError) -> Change<Edit> {
        let change = try decoded()
        guard change.payload.type == Edit.documentType else { throw .otherType(change.payload.type.rawValue) }
        guard let typed = change.decoded(as: Edit.self) else { throw .futureSchema(change.payload.schemaVersion) }
        return typed
    }
}
