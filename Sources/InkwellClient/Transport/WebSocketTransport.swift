package import Foundation
import HummingbirdWSClient
import InkwellWire
package import Logging
import NIOCore
import NIOWebSocket

/// The transport apps use: one WebSocket per connection, through HummingbirdWSClient.
package struct WebSocketTransport: SyncTransport {
    package init() {}

    package func connect(
        to url: URL,
        options: SyncTransportOptions,
        logger: Logger,
        session: @escaping @Sendable (any SyncConnection) async throws -> Void
    ) async throws -> SyncTransportClose? {
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 20,
            closeTimeout: options.closeTimeout,
            autoPing: options.pingInterval.map { .enabled(timePeriod: $0) } ?? .disabled
        )
        let frame = try await WebSocketClient.connect(
            url: url.absoluteString,
            configuration: configuration,
            logger: logger
        ) { inbound, outbound, _ in
            try await session(WebSocketConnection(inbound: inbound, outbound: outbound))
        }
        return frame.map { SyncTransportClose(code: UInt16(webSocketErrorCode: $0.closeCode), reason: $0.reason) }
    }
}

/// An upgraded WebSocket, speaking only binary messages.
private struct WebSocketConnection: SyncConnection {
    let inbound: WebSocketInboundStream
    let outbound: WebSocketOutboundWriter

    func receive(_ body: ([UInt8]) async throws -> Void) async throws {
        for try await message in inbound.messages(maxSize: SyncProtocol.maximumFrameBytes) {
            guard case .binary(let buffer) = message else { throw SyncClientError.malformedFrame("text message") }
            try await body(Array(buffer.readableBytesView))
        }
    }

    func send(_ frame: [UInt8]) async throws {
        try await outbound.writeBinaryMessage(ByteBuffer(bytes: frame))
    }

    func close(code: UInt16, reason: String?) async throws {
        try await outbound.close(WebSocketErrorCode(codeNumber: Int(code)), reason: reason)
    }
}
