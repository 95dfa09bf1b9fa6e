import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL

/// Hummingbird's HTTP/1 channel with a WebSocket upgrade, with a ``HandshakeGuard`` added to every new
/// connection's pipeline before its first byte is read; over TLS when given a context.
///
/// The library offers no hook that runs that early (its extra handlers join only once a request has
/// been found to be plain HTTP), so this wraps its child channel and adds the guard in the same setup.
/// TLS is set up here too, not by wrapping this in HummingbirdTLS's channel, so that a ``PlaintextGuard``
/// can stand before the TLS handler.
struct GuardedUpgradeChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let upgrade: HTTP1WebSocketUpgradeChannel
    let configuration: HandshakeGuard.Configuration
    let tls: NIOSSLContext?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let configuration = configuration
        if let tls {
            do {
                let operations = channel.pipeline.syncOperations
                try operations.addHandler(PlaintextGuard(logger: logger, countViolation: configuration.countViolation))
                try operations.addHandler(NIOSSLServerHandler(context: tls))
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
        return upgrade.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(HandshakeGuard(configuration: configuration, logger: logger))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await upgrade.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// ``HTTPServerBuilder/http1WebSocketUpgrade(configuration:shouldUpgrade:)``, guarded by a
    /// ``HandshakeGuard`` and, once upgraded, a ``FrameGuard``; over TLS with `tls`.
    static func guardedWebSocketUpgrade(
        configuration: HTTP1WebSocketUpgradeChannel.Configuration,
        guarding guardConfiguration: HandshakeGuard.Configuration,
        tls: NIOSSLContext? = nil,
        shouldUpgrade:
            @escaping @Sendable (HTTPRequest, any Channel, Logger) throws -> ShouldUpgradeResult<
                WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
            >
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedUpgradeChannel(
                upgrade: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    configuration: configuration,
                    shouldUpgrade: shouldUpgrade
                ),
                configuration: guardConfiguration,
                tls: tls
            )
        }
    }
}
