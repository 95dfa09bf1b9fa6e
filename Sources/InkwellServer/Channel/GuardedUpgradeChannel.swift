import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Hummingbird's HTTP/1 channel with a WebSocket upgrade, with a ``HandshakeGuard`` added to every new
/// connection's pipeline before its first byte is read.
///
/// The library offers no hook that runs that early (its extra handlers join only once a request has
/// been found to be plain HTTP), so this wraps its child channel and adds the guard in the same setup.
struct GuardedUpgradeChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let upgrade: HTTP1WebSocketUpgradeChannel
    let configuration: HandshakeGuard.Configuration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let configuration = configuration
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
    /// ``HandshakeGuard`` and, once upgraded, a ``FrameGuard``.
    static func guardedWebSocketUpgrade(
        configuration: HTTP1WebSocketUpgradeChannel.Configuration,
        guarding guardConfiguration: HandshakeGuard.Configuration,
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
                configuration: guardConfiguration
            )
        }
    }
}
