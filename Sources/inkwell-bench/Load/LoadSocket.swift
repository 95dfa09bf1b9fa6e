import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// One WebSocket connection of the load generator, run by NIO channel handlers on its event loop.
///
/// The generator holds a thousand connections in one process beside the server it measures, on the
/// same cores, so it has to cost far less than the server. `SyncSocket` hands every frame through two
/// tasks (the WebSocket layer's inbound stream, then its own message stream): under the 100 × 10 load
/// that made the generator use more CPU than the server (BENCHMARKS.md, "Server under load"). Here a
/// frame is decoded and timed by the handler that reads it (``LoadReceiver``), and a send is one
/// channel write. The bytes on the wire are the same as any client's.
final class LoadSocket: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How long ``close()`` waits for the server to answer the close before dropping the connection.
    static let closeTimeout: Duration = .seconds(2)

    let channel: any Channel

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// Opens a connection to `url` (`ws://host:port/sync`) and upgrades it to a WebSocket, with
    /// `receiver` reading every frame the server sends.
    ///
    /// - Parameter receiver: makes the connection's reader, on its event loop, once the upgrade is done.
    /// - Throws: when the address is not one, the connection fails, or the server refuses the upgrade.
    static func connect(
        url: String,
        group: any EventLoopGroup,
        receiver: @escaping @Sendable (any EventLoop) -> LoadReceiver
    ) async throws -> LoadSocket {
        guard let components = URLComponents(string: url), let host = components.host else {
            throw Failure(description: "not a server address: \(url)")
        }
        let port = components.port ?? (components.scheme == "https" || components.scheme == "wss" ? 443 : 80)
        let authority = components.port.map { "\(host):\($0)" } ?? host
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let loop = group.next()
        let upgraded = loop.makePromise(of: Void.self)
        let bootstrap = ClientBootstrap(group: loop)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: 1 << 20) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            let pipeline = channel.pipeline.syncOperations
                            try pipeline.addHandler(
                                NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 0,
                                    maxAccumulatedFrameCount: 1 << 12,
                                    maxAccumulatedFrameSize: 64 << 20
                                )
                            )
                            try pipeline.addHandler(receiver(channel.eventLoop))
                            upgraded.succeed()
                        }
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                context.pipeline.removeHandler(name: UpgradeRequest.name, promise: nil)
                            }
                        )
                    )
                    try channel.pipeline.syncOperations.addHandler(
                        UpgradeRequest(authority: authority, path: path, refused: upgraded),
                        name: UpgradeRequest.name
                    )
                }
            }
        let channel = try await bootstrap.connect(host: host, port: port).get()
        channel.closeFuture.whenComplete { _ in
            upgraded.fail(Failure(description: "the connection closed before the WebSocket upgrade"))
        }
        do {
            try await upgraded.futureResult.get()
        } catch {
            channel.close(promise: nil)
            throw error
        }
        return LoadSocket(channel: channel)
    }

    /// Sends bytes as one masked binary message.
    ///
    /// - Throws: when the connection has closed (a write still queued then is dropped silently).
    func send(_ bytes: [UInt8]) throws {
        guard channel.isActive else { throw Failure(description: "the connection is closed") }
        let frame = WebSocketFrame(
            fin: true,
            opcode: .binary,
            maskKey: .random(),
            data: channel.allocator.buffer(bytes: bytes)
        )
        channel.writeAndFlush(frame, promise: nil)
    }

    /// Sends a close and waits until the server has answered it and the connection has ended, or drops
    /// the connection after ``closeTimeout``.
    func close() async {
        let channel = self.channel
        if channel.isActive {
            var reason = channel.allocator.buffer(capacity: 2)
            reason.write(webSocketErrorCode: .normalClosure)
            channel.writeAndFlush(
                WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: reason),
                promise: nil
            )
        }
        let timeout = channel.eventLoop.scheduleTask(in: TimeAmount(Self.closeTimeout)) {
            channel.close(promise: nil)
        }
        try? await channel.closeFuture.get()
        timeout.cancel()
    }
}

/// Writes the upgrade request when the connection opens, and fails the upgrade when the server answers
/// with anything but `101 Switching Protocols` (the upgrade handler passes such an answer on to here).
private final class UpgradeRequest: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    static let name = "inkwell-load-upgrade-request"

    let authority: String
    let path: String
    let refused: EventLoopPromise<Void>

    init(authority: String, path: String, refused: EventLoopPromise<Void>) {
        self.authority = authority
        self.path = path
        self.refused = refused
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: authority)
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        refused.fail(LoadSocket.Failure(description: "the server refused the WebSocket upgrade: \(head.status)"))
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        refused.fail(error)
        context.close(promise: nil)
    }
}
