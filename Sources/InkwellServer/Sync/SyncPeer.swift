import HummingbirdWebSocket
package import InkwellWire
package import NIOCore
import NIOWebSocket

/// One upgraded connection as ``SyncEndpoint`` reads it and closes it: a WebSocket
/// (``WebSocketPeer``) in the server, something else under a harness that owns the network, such as the
/// deterministic simulation. Frames go out through the connection's channel (``FrameWriter``) either way.
package protocol SyncPeer: Sendable {
    /// Hands each message the peer sends to `body`, in order, until the peer closes or `body` returns
    /// false.
    ///
    /// - Throws: when the connection fails, or the peer breaks the WebSocket's rules (a message over
    ///   `maximumBytes`, bad fragmentation).
    func receive(maximumBytes: Int, _ body: (SyncPeerMessage) async -> Bool) async throws

    /// Sends a close with `code` and `reason`, ending the connection once the peer answers.
    func close(code: CloseCode, reason: String) async throws
}

/// A message a peer sent.
package enum SyncPeerMessage: Sendable {
    case binary(ByteBuffer)
    /// A text message, which the protocol does not have.
    case text
}

/// A WebSocket upgraded by Hummingbird.
struct WebSocketPeer: SyncPeer {
    let inbound: WebSocketInboundStream
    let outbound: WebSocketOutboundWriter

    func receive(maximumBytes: Int, _ body: (SyncPeerMessage) async -> Bool) async throws {
        for try await message in inbound.messages(maxSize: maximumBytes) {
            let carried: SyncPeerMessage =
                switch message {
                case .binary(let buffer): .binary(buffer)
                case .text: .text
                }
            guard await body(carried) else { return }
        }
    }

    func close(code: CloseCode, reason: String) async throws {
        try await outbound.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: reason)
    }
}
