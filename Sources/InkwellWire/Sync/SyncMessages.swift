public import InkwellSync

/// What a client sends.
public enum ClientMessage: Hashable, Sendable {
    case hello(protocolVersion: UInt32, minimumProtocolVersion: UInt32, device: ReplicaID, agent: String)
    /// Every pack of the room after server position `after`, then live packs, with what the
    /// capability from the room's link allows (empty for an open room).
    case subscribe(room: String, after: UInt64, capability: String)
    case unsubscribe(room: String)
    /// An encoded pack, forwarded and stored as these exact bytes.
    case push(room: String, pack: [UInt8])
    case presence(Presence)
    /// Registers a new room by the hashes of its capabilities (``Capability/hash``).
    case createRoom(room: String, adminHash: [UInt8], editHash: [UInt8], viewHash: [UInt8])
    /// Replaces the room's edit or view capability (an empty hash keeps it), proven by the admin capability.
    case rotateCapability(room: String, admin: String, editHash: [UInt8], viewHash: [UInt8])
    /// The device checked and holds the room snapshot named, signed by one of its author keys.
    case snapshotChecked(SnapshotCheck)
}

/// What a connection may do in a room.
public enum Rights: UInt8, Comparable, Hashable, Sendable, CaseIterable {
    case none = 0
    /// Catch-up and live packs.
    case view = 1
    /// Also push and presence.
    case edit = 2
    /// Also rotate the room's other capabilities.
    case admin = 3

    public static func < (lhs: Rights, rhs: Rights) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether these rights allow changing the room: pushes and presence.
    public var mayEdit: Bool { self >= .edit }
}

/// What a server sends.
public enum ServerMessage: Hashable, Sendable {
    case welcome(protocolVersion: UInt32, server: ReplicaID, maximumFrameBytes: UInt32, serverTime: UInt64)
    /// The pushed pack is durable at `serverSeq`.
    case ack(room: String, pack: PackID, serverSeq: UInt64)
    /// Packs of a room in server order, and the room's newest position.
    case packs(room: String, packs: [StoredPack], head: UInt64)
    /// Parts of the snapshot that stands for every position through `position`, whose packs the server
    /// no longer keeps: the client takes the whole snapshot, then the packs after `position`.
    case rebase(room: String, parts: [StoredPack], position: UInt64, head: UInt64)
    case presence(Presence)
    /// Several members' presence, in the order it was sent: what a server sends when presence has
    /// piled up for a connection. Each is handled as a ``presence(_:)``.
    case presences([Presence])
    case progress(room: String, head: UInt64, bytesBehind: UInt64, packsBehind: UInt64)
    case error(code: UInt32, message: String, fatal: Bool, room: String)
    /// What the connection may do in `room`; `guarded` is false for an open room (anyone who names it edits).
    case access(room: String, rights: Rights, guarded: Bool)
}

/// A pack as a room's log holds it.
public struct StoredPack: Hashable, Sendable {
    public var serverSeq: UInt64
    public var bytes: [UInt8]

    public init(serverSeq: UInt64, bytes: [UInt8]) {
        self.serverSeq = serverSeq
        self.bytes = bytes
    }
}

/// Ephemeral state of a member in a room: relayed to those connected now, never stored.
public struct Presence: Hashable, Sendable {
    public var room: String
    public var device: ReplicaID
    public var name: String
    public var colour: UInt32
    public var cursor: (x: Double, y: Double)?
    /// The board of the stroke being drawn, and that stroke's encoded `Points`.
    public var ink: (board: String, colour: UInt32, width: Double, points: [UInt8])?
    /// In an encrypted room: the fields above but `room` and `device`, sealed with the room's key;
    /// those fields are then empty, and the server relays what it cannot read.
    public var sealed: [UInt8]

    public init(
        room: String,
        device: ReplicaID,
        name: String,
        colour: UInt32,
        cursor: (x: Double, y: Double)? = nil,
        ink: (board: String, colour: UInt32, width: Double, points: [UInt8])? = nil,
        sealed: [UInt8] = []
    ) {
        self.sealed = sealed
        self.room = room
        self.device = device
        self.name = name
        self.colour = colour
        self.cursor = cursor
        self.ink = ink
    }

    public static func == (lhs: Presence, rhs: Presence) -> Bool {
        lhs.room == rhs.room && lhs.device == rhs.device && lhs.name == rhs.name && lhs.colour == rhs.colour
            && lhs.cursor?.x == rhs.cursor?.x && lhs.cursor?.y == rhs.cursor?.y && lhs.ink?.board == rhs.ink?.board
            && lhs.ink?.colour == rhs.ink?.colour && lhs.ink?.width == rhs.ink?.width
            && lhs.ink?.points == rhs.ink?.points && lhs.sealed == rhs.sealed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(room)
        hasher.combine(device)
        hasher.combine(name)
    }
}
