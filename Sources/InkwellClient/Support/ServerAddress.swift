public import Foundation

/// The sync endpoint for what a person types as a server: `http://host:port`, `ws://host:port`,
/// `host:port`, with or without `/sync`.
public enum ServerAddress {
    /// The WebSocket URL of the sync endpoint, `ws://host:port/sync` (`wss` for `https`/`wss`).
    ///
    /// - Throws: ``AddressError`` for text that names no host, or another scheme.
    public static func syncURL(_ text: String) throws -> URL {
        var text = text
        if !text.contains("://") { text = "ws://" + text }
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            components.host?.isEmpty == false
        else { throw AddressError(text: text) }
        switch scheme {
        case "ws", "http": components.scheme = "ws"
        case "wss", "https": components.scheme = "wss"
        default: throw AddressError(text: text)
        }
        if components.path.isEmpty || components.path == "/" { components.path = "/sync" }
        guard let url = components.url else { throw AddressError(text: text) }
        return url
    }

    /// Text that is not a server address; the description quotes it, for the person who typed it.
    public struct AddressError: Error, CustomStringConvertible {
        public let text: String
        public var description: String { "not a server address: \(text) (expected e.g. http://127.0.0.1:8080)" }
    }
}
