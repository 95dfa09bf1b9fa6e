import Foundation
public import HummingbirdWebSocket
public import Logging

/// A WebSocket route beside `/sync`, served by code outside the server's modules: the JSON stroke
/// protocol's bridge (`/interop/ROOM`), which reads boards, as the server itself never does.
///
/// Its handshakes pass the same checks as the sync socket's (host, origin, the connection limit and
/// the per-address limit).
public struct SocketRoute: Sendable {
    /// What one connection asked for.
    public struct Request: Sendable {
        /// The path after the route's prefix, without its query: `ROOM` for `/interop/ROOM`.
        public var rest: String
        /// The query's parameters (the first of each name), percent-decoded.
        public var query: [String: String]
        /// The port the server listens on, for a bridge that reaches the server's own sync socket.
        public var serverPort: Int
    }

    /// The path's first segment: `interop` takes `/interop/…`.
    public let prefix: String
    /// Serves one connection until it ends.
    public let serve:
        @Sendable (
            _ request: Request,
            _ inbound: WebSocketInboundStream,
            _ outbound: WebSocketOutboundWriter,
            _ logger: Logger
        ) async throws -> Void

    public init(
        prefix: String,
        serve:
            @escaping @Sendable (Request, WebSocketInboundStream, WebSocketOutboundWriter, Logger) async throws ->
            Void
    ) {
        self.prefix = prefix
        self.serve = serve
    }

    /// The request for `path` (with its query) if this route takes it.
    func request(for path: String, serverPort: Int) -> Request? {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let route = "/" + prefix + "/"
        guard let first = parts.first, first.hasPrefix(route) else { return nil }
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let field = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = field.first?.removingPercentEncoding, query[name] == nil else { continue }
                query[name] =
                    field.count == 2
                    ? String(field[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding : ""
            }
        }
        return Request(rest: String(first.dropFirst(route.count)), query: query, serverPort: serverPort)
    }
}
