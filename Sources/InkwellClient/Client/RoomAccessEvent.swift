public import InkwellWire

/// What the server said of a room's access on the current connection.
public enum RoomAccessEvent: Hashable, Sendable {
    /// The device may do what `rights` allow; `guarded` is false for an open room.
    case granted(room: String, rights: Rights, guarded: Bool)
    /// A request for the room was refused (``ErrorCode/noSuchRoom``, ``ErrorCode/notAllowed``,
    /// ``ErrorCode/roomExists``), in the server's words.
    case refused(room: String, code: UInt32, message: String)

    public var room: String {
        switch self {
        case .granted(let room, _, _), .refused(let room, _, _): room
        }
    }
}
