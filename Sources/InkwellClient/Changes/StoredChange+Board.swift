public import InkwellBoard
public import InkwellStore
public import InkwellSync
public import InkwellWire

extension StoredChange {
    /// A board change as the store keeps it: encoded with ``ChangeCodec`` at the current schema, indexed by
    /// the strokes it names.
    public init(_ change: BoardChange, room: String) {
        self.init(change, room: room, encoded: ChangeCodec.encode(change), schemaVersion: WireSchema.current)
    }

    /// A change decoded from `encoded`, kept as exactly those bytes: stores and servers forward what they
    /// received, so a change re-encoded by another version never turns into a conflicting duplicate.
    public init(_ change: BoardChange, room: String, encoded: [UInt8], schemaVersion: UInt32) {
        self.init(
            id: change.id,
            stamp: change.stamp,
            room: room,
            board: change.payload.board.rawValue,
            schemaVersion: schemaVersion,
            payload: encoded,
            entities: change.entities
        )
    }

    /// Decodes the payload, and checks that it is the change the metadata says it is.
    ///
    /// - Throws: ``WireError`` when the payload does not decode (``WireError/futureSchema(_:)`` for a newer
    ///   schema), or when its id, stamp or board disagree with the stored metadata.
    public func boardChange() throws(WireError) -> BoardChange {
        let change = try ChangeCodec.decode(payload)
        guard change.id == id else { throw .invalidField("change.id") }
        guard change.stamp == stamp else { throw .invalidField("change.stamp") }
        guard change.payload.board.rawValue == board else { throw .invalidField("change.board") }
        return change
    }
}
