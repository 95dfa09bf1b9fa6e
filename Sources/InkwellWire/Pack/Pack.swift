/// A decoded pack: encoded changes, each with its room, in the order they were packed.
public struct Pack: Hashable, Sendable {
    /// One encoded change and the room it belongs to. The change stays encoded: stores and servers
    /// keep and forward these exact bytes.
    public struct Entry: Hashable, Sendable {
        public var room: String
        public var change: [UInt8]

        public init(room: String, change: [UInt8]) {
            self.room = room
            self.change = change
        }
    }

    public var id: PackID
    /// The newest schema among the changes inside.
    public var schemaVersion: UInt32
    public var entries: [Entry]

    public init(id: PackID, schemaVersion: UInt32 = WireSchema.current, entries: [Entry]) {
        self.id = id
        self.schemaVersion = schemaVersion
        self.entries = entries
    }
}
