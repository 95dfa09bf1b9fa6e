public import InkwellSync

/// One encoded change as the store keeps it: the opaque bytes plus the metadata it is indexed by.
///
/// The store never decodes ``payload``; `InkwellWire` does. ``entities`` name what the change touches
/// (for example stroke ids) so that a redraw can be limited to them; they are kept alongside and
/// reported in ``StoreNotification``s.
public struct StoredChange: Hashable, Sendable {
    public let id: ChangeID
    public let stamp: Stamp
    public let room: String
    public let document: String
    /// The document's type, as the change names it.
    public let type: DocumentType
    /// The schema version the payload was encoded with.
    public let schemaVersion: UInt32
    public let payload: [UInt8]
    public let entities: [String]

    public init(
        id: ChangeID,
        stamp: Stamp,
        room: String,
        document: String,
        type: DocumentType = .unnamed,
        schemaVersion: UInt32,
        payload: [UInt8],
        entities: [String] = []
    ) {
        self.id = id
        self.stamp = stamp
        self.room = room
        self.document = document
        self.type = type
        self.schemaVersion = schemaVersion
        self.payload = payload
        self.entities = entities
    }

    /// The change's place in the total order `(stamp, replica, seq)`.
    public var position: OpStamp { OpStamp(stamp: stamp, change: id) }

    /// Whether `other` is the same change: entities are derived from the payload and not compared.
    func isSameChange(as other: StoredChange) -> Bool {
        id == other.id && stamp == other.stamp && room == other.room && document == other.document
            && type == other.type && schemaVersion == other.schemaVersion && payload == other.payload
    }
}

/// A document is named by its room and its name within the room.
public struct DocumentKey: Hashable, Sendable {
    public let room: String
    public let document: String

    public init(room: String, document: String) {
        self.room = room
        self.document = document
    }
}
