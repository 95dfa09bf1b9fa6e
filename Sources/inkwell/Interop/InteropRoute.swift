import Foundation
import HummingbirdWebSocket
import InkwellBoard
import InkwellServer
import Logging
import NIOCore
import NIOWebSocket

/// `/interop/ROOM?cap=CAPABILITY`: the JSON stroke protocol (`interop-protocol.md`) on a WebSocket, one
/// message a text frame. Each connection is an ``InteropBridge``: a replica that reaches this server's
/// own sync socket on the loopback address, like any client.
enum InteropRoute {
    /// - Parameters:
    ///   - host: the address the server listens on; a wildcard is reached on the loopback address.
    ///   - tls: whether the server speaks TLS, which the bridge's loopback connection does not yet.
    static func make(host: String, tls: Bool) -> SocketRoute {
        SocketRoute(prefix: "interop") { request, inbound, outbound, logger in
            let send: @Sendable (String) async throws -> Void = { text in
                try await outbound.write(.text(text))
            }
            do {
                guard !tls else {
                    throw InteropBridge.Refusal(description: "the JSON stroke protocol is not served over TLS yet")
                }
                let bridge = try await InteropBridge(
                    room: request.rest,
                    capability: request.query["cap"],
                    server: syncURL(host: host, port: request.serverPort),
                    logger: logger
                )
                let incoming = inbound.messages(maxSize: InteropMessage.maximumBytes).map { message -> [UInt8] in
                    switch message {
                    case .text(let text): Array(text.utf8)
                    case .binary(let buffer): Array(buffer.readableBytesView)
                    }
                }
                try await bridge.run(incoming: incoming, send: send)
                logger.info("interop connection ended")
            } catch let refusal as InteropBridge.Refusal {
                logger.info("interop connection refused", metadata: ["reason": "\(refusal)"])
                try? await send(InteropBridge.error(refusal.description))
                try? await outbound.close(.policyViolation, reason: "refused")
            }
        }
    }

    /// This server's sync socket, as the bridge reaches it.
    static func syncURL(host: String, port: Int) -> URL {
        let address =
            switch host {
            case "", "0.0.0.0": "127.0.0.1"
            case "::": "[::1]"
            case let named where named.contains(":"): "[\(named)]"
            default: host
            }
        return URL(string: "ws://\(address):\(port)/sync")!
    }
}
