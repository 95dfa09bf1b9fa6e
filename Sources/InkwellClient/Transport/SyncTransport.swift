package import Foundation
package import Logging

/// How a ``SyncClient`` reaches its server: a WebSocket (``WebSocketTransport``) in an app, something
/// else under a harness that owns the network, such as the deterministic simulation. The client's
/// connection logic (hello, pushes, acks, the close handshake and reconnecting) is the same over any.
package protocol SyncTransport: Sendable {
    /// Opens a connection to `url`, runs `session` on it until the session returns or the connection
    /// ends, and returns the close the server sent, if it sent one.
    ///
    /// - Throws: when the connection cannot be opened, or what `session` throws.
    func connect(
        to url: URL,
        options: SyncTransportOptions,
        logger: Logger,
        session: @escaping @Sendable (any SyncConnection) async throws -> Void
    ) async throws -> SyncTransportClose?
}

/// What a connection is opened with.
package struct SyncTransportOptions: Sendable {
    /// How long the server may take to answer our close.
    package var closeTimeout: Duration
    /// How often an idle connection is pinged, if at all.
    package var pingInterval: Duration?

    package init(closeTimeout: Duration, pingInterval: Duration?) {
        self.closeTimeout = closeTimeout
        self.pingInterval = pingInterval
    }
}

/// The close frame a server sent.
package struct SyncTransportClose: Hashable, Sendable {
    package var code: UInt16
    package var reason: String?

    package init(code: UInt16, reason: String?) {
        self.code = code
        self.reason = reason
    }

    /// The close a client sends when it means to end the connection (WebSocket's 1000).
    package static let normalClosure: UInt16 = 1000
}

/// One open connection, as a session sees it: frames in order each way, and a close.
package protocol SyncConnection: Sendable {
    /// Hands each frame the server sends to `body`, in order, and returns once the server has closed.
    ///
    /// - Throws: ``SyncClientError/malformedFrame(_:)`` for a frame the protocol does not have (a text
    ///   message on a WebSocket), what `body` throws, or the connection's failure.
    func receive(_ body: ([UInt8]) async throws -> Void) async throws

    /// Sends one frame.
    func send(_ frame: [UInt8]) async throws

    /// Starts the close handshake; ``receive(_:)`` returns once the server answers it.
    func close(code: UInt16, reason: String?) async throws
}
