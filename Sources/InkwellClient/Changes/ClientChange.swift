public import InkwellSync

/// A change that was just stored, and whether this device made it.
public struct ClientChange: Hashable, Sendable {
    /// Where a stored change came from.
    public enum Origin: Hashable, Sendable {
        /// Recorded on this device.
        case local
        /// Received from the server.
        case remote
    }

    public let room: String
    public let change: EncodedChange
    public let origin: Origin

    public init(room: String, change: EncodedChange, origin: Origin) {
        self.room = room
        self.change = change
        self.origin = origin
    }
}
