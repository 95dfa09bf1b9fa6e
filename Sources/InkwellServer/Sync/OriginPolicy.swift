import Foundation

/// Which browser pages may open the sync socket: a page of the server's own origin, and those listed.
///
/// Browsers send `Origin` on every WebSocket handshake and let any page try one, so without this a
/// page on another site could sync as the person visiting it. Native clients send no `Origin`, or one
/// with a `ws:` or `wss:` scheme (swift-websocket's client does), which no web page can have.
struct OriginPolicy: Sendable {
    let allowed: Set<String>

    init(allowed: Set<String>) {
        self.allowed = Set(allowed.map { $0.lowercased() })
    }

    /// Whether a handshake with this `Origin` header, made to this `Host`, may proceed.
    func permits(origin: String?, host: String?) -> Bool {
        guard let origin = origin?.lowercased() else { return true }
        if origin.hasPrefix("ws://") || origin.hasPrefix("wss://") { return true }
        if allowed.contains("*") || allowed.contains(origin) { return true }
        guard let host = host?.lowercased(), let separator = origin.range(of: "://") else { return false }
        // Same origin: the page was served by this server, under the name the socket is opened with.
        return origin[separator.upperBound...] == host[...]
    }
}
