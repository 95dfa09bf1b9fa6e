/// Which browser pages may open the sync socket: a page of the server's own origin, and those listed.
///
/// Browsers send `Origin` on every WebSocket handshake and let any page try one, so without this a
/// page on another site could sync as the person visiting it. Native clients send no `Origin`, or one
/// with a `ws:` or `wss:` scheme (swift-websocket's client does), which no web page can have.
///
/// The server's own origins come from its ``HostPolicy``, never from the request's `Host`: a page of a
/// rebound name sends an `Origin` that matches the `Host` it sends.
struct OriginPolicy: Sendable {
    let allowed: Set<String>
    let hosts: HostPolicy

    init(allowed: Set<String>, hosts: HostPolicy) {
        self.allowed = Set(allowed.map { $0.lowercased() })
        self.hosts = hosts
    }

    /// Whether a handshake with this `Origin` header may proceed on a server listening on `port`.
    func permits(origin: String?, port: Int) -> Bool {
        guard let origin = origin?.lowercased() else { return true }
        if origin.hasPrefix("ws://") || origin.hasPrefix("wss://") { return true }
        if allowed.contains("*") || allowed.contains(origin) { return true }
        return hosts.isOwnOrigin(origin, port: port)
    }
}
