public import Foundation
public import InkwellStore
public import InkwellWire

/// A board's link: `https://host/r/ROOM?cap=CAPABILITY#key=KEY`. The capability says what its holder
/// may do; the key, in the fragment that browsers never send, decrypts the board. A link with neither
/// names an open room.
public struct RoomLink: Hashable, Sendable, CustomStringConvertible {
    /// The server's address, `http(s)://host[:port]`.
    public var server: URL
    public var room: String
    public var capability: Capability?
    /// The room's key, for an encrypted board.
    public var key: RoomKey?

    public init(server: URL, room: String, capability: Capability? = nil, key: RoomKey? = nil) {
        self.server = server
        self.room = room
        self.capability = capability
        self.key = key
    }

    /// Parses a link; nil unless it is `http(s)://host[:port]/r/ROOM` with an optional well-formed
    /// `cap` and `key`.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        let parts = components.path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0] == "r", SyncProtocol.isValidRoom(String(parts[1])) else { return nil }
        var origin = URLComponents()
        (origin.scheme, origin.host, origin.port) = (scheme, host, components.port)
        guard let server = origin.url else { return nil }
        var capability: Capability?
        if let text = components.queryItems?.first(where: { $0.name == "cap" })?.value {
            guard let parsed = Capability(text) else { return nil }
            capability = parsed
        }
        var key: RoomKey?
        if let fragment = components.fragment, !fragment.isEmpty {
            let fields = Dictionary(
                fragment.split(separator: "&").map { field -> (Substring, Substring) in
                    let pair = field.split(separator: "=", maxSplits: 1)
                    return (pair[0], pair.count > 1 ? pair[1] : "")
                },
                uniquingKeysWith: { first, _ in first }
            )
            if let text = fields["key"] {
                guard let parsed = RoomKey(text: text) else { return nil }
                key = parsed
            }
        }
        self.init(server: server, room: String(parts[1]), capability: capability, key: key)
    }

    /// The link's text: capability in the query, key in the fragment.
    public var description: String {
        var text = server.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += "/r/\(room)"
        if let capability { text += "?cap=\(capability.text)" }
        if let key { text += "#key=\(key.text)" }
        return text
    }

    /// What this link gives the device that opens it.
    public var credentials: RoomCredentials? {
        capability.map { RoomCredentials.from(link: $0, key: key) }
    }

    /// A new room id: 22 of `A-Z a-z 0-9` drawn without bias, about 131 bits, as the page makes them.
    public static func newRoomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return newRoomID(using: &generator)
    }

    public static func newRoomID(using generator: inout some RandomNumberGenerator) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<22).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// The links a device can hand on for `room`: edit and view, as far as it holds them.
    public static func shareable(
        server: URL,
        room: String,
        credentials: RoomCredentials
    ) -> (edit: RoomLink?, view: RoomLink?) {
        (
            credentials.edit.map { RoomLink(server: server, room: room, capability: $0, key: credentials.key) },
            credentials.view.map { RoomLink(server: server, room: room, capability: $0, key: credentials.key) }
        )
    }
}
