public import InkwellSync

/// What a pack carries: encoded changes of one room, all by one author, in the order they were packed.
///
/// The changes stay encoded: stores and servers keep and forward these exact bytes. A pack's id and
/// author are not part of this value: the id is the hash of the encoded pack and the author is whoever
/// signed it, so both come from decoding (``ReceivedPack``), never from the sender's say-so.
public struct Pack: Hashable, Sendable {
    public var room: String
    /// The newest schema among the changes inside.
    public var schemaVersion: UInt32
    public var changes: [[UInt8]]

    public init(room: String, schemaVersion: UInt32 = WireSchema.current, changes: [[UInt8]]) {
        self.room = room
        self.schemaVersion = schemaVersion
        self.changes = changes
    }
}

/// A pack as decoded and verified: its signature holds, and every change inside is its author's.
public struct ReceivedPack: Hashable, Sendable {
    /// The SHA-256 of the bytes it was decoded from.
    public let id: PackID
    /// The replica owned by the key that signed it.
    public let author: ReplicaID
    public let pack: Pack

    public var room: String { pack.room }
    public var schemaVersion: UInt32 { pack.schemaVersion }
    public var changes: [[UInt8]] { pack.changes }
}
