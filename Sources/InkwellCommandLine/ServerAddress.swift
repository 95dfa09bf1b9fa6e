package import Foundation

/// The sync endpoint for what a person types after `--server`: `http://host:port`, `ws://host:port`,
/// `host:port`, with or without `/sync`.
package enum ServerAddress {
    package static func syncURL(_ text: String) throws -> URL {
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

    /// The page's address for a server given as `--server`: `http(s)://host:port`, as links carry it.
    package static func pageURL(_ text: String) throws -> URL {
        var components = URLComponents(url: try syncURL(text), resolvingAgainstBaseURL: false)!
        components.scheme = components.scheme == "wss" ? "https" : "http"
        components.path = ""
        guard let url = components.url else { throw AddressError(text: text) }
        return url
    }

    package struct AddressError: Error, CustomStringConvertible {
        package let text: String
        package var description: String { "not a server address: \(text) (expected e.g. http://127.0.0.1:8080)" }
    }
}
