import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Guards a new connection until its first request is either upgraded to WebSocket or handed to the
/// HTTP router, the moment the libraries' own timeouts and error handling start.
///
/// Before that moment the upgrade pipeline has NIO's HTTP error handler turned off and no idle timeout,
/// so bytes that are not HTTP (a TLS ClientHello, say) got no answer and a socket that sent nothing,
/// or half a request head, was held open. This handler answers an HTTP parse error with 400 and closes,
/// and closes a connection whose request head has not arrived within
/// ``Configuration/headerTimeout``. It sits after the upgrade handler, so it sees the parser's errors,
/// the upgrade's completion (then it puts a ``FrameGuard`` after the WebSocket frame decoder, before
/// the first frame is decoded) and the first request part of plain HTTP; either way it then leaves.
///
/// A handshake the server refuses is answered by the WebSocket library, always 400; one refused for its `Host`
/// (``refuse(_:status:)``) leaves with the status the server gives other requests for that host.
final class HandshakeGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    struct Configuration: Sendable {
        /// How long a connection has to send its request head.
        var headerTimeout: TimeAmount
        /// For the ``FrameGuard`` of an upgraded connection.
        var frames: FrameGuard.Configuration

        /// Counts a refused connection in the server's metrics (the frame guard's counter).
        var countViolation: @Sendable (_ reason: String) -> Void { frames.countViolation }
    }

    private let configuration: Configuration
    /// Replaced by the upgrade's logger (with its request id) once the upgrade is accepted.
    private var logger: Logger
    private var deadline: Scheduled<Void>?
    private var decided = false
    /// The status of the answer to a handshake refused for its `Host`.
    private var refusal: HTTPResponseStatus?

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Hands the upgrade's logger to the guard of `channel`, so the frame guard's lines carry the
    /// request id the connection's other lines carry. Call on the channel's event loop.
    static func upgrading(_ channel: any Channel, logger: Logger) {
        guard channel.eventLoop.inEventLoop,
            let handshake = try? channel.pipeline.syncOperations.handler(type: HandshakeGuard.self)
        else { return }
        handshake.logger = logger
    }

    /// Has the library's answer to the handshake on `channel`, which the server refuses for its `Host`, say
    /// `status` instead of 400. Call on the channel's event loop.
    static func refuse(_ channel: any Channel, status: HTTPResponseStatus) {
        guard channel.eventLoop.inEventLoop,
            let handshake = try? channel.pipeline.syncOperations.handler(type: HandshakeGuard.self)
        else { return }
        handshake.refusal = status
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let refusal, case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        self.refusal = nil
        head.status = refusal
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startDeadline(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startDeadline(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only a request the router is to answer gets here before the upgrade: it is plain HTTP. Or what followed
        // the head of a refused handshake, whose answer is still to come.
        decide()
        context.fireChannelRead(data)
        if refusal == nil { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case HTTPServerUpgradeEvents.upgradeComplete:
            decide()
            installFrameGuard(context: context)
            context.fireUserInboundEventTriggered(event)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        case is ChannelShouldQuiesceEvent where !decided:
            // Shutting down: a connection that has not even sent its request has nothing to finish.
            context.fireUserInboundEventTriggered(event)
            Self.refuse(context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !decided, error is HTTPParserError {
            decide()
            configuration.countViolation("http")
            logger.info("not HTTP: answering 400 and closing", metadata: ["error": "\(error)"])
            let head = HTTPResponseHead(
                version: .http1_1,
                status: .badRequest,
                headers: ["Connection": "close", "Content-Length": "0"]
            )
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                Self.refuse(context: context)
            }
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        decide()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        decide()
    }

    private func startDeadline(context: ChannelHandlerContext) {
        guard deadline == nil, !decided else { return }
        let timeout = configuration.headerTimeout
        let logger = logger
        let countViolation = configuration.countViolation
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            countViolation("header timeout")
            logger.info("no request head within \(timeout): closing")
            Self.refuse(context: context)
        }
    }

    /// Closes a connection whose first request is not settled. Shutting its input first lets the upgrade
    /// handler give up the pending upgrade as it does for a peer that hung up, which Hummingbird takes
    /// quietly (any other close it logs as an error); the full close that follows makes sure.
    private static func refuse(context: ChannelHandlerContext) {
        context.close(mode: .input, promise: nil)
        context.close(promise: nil)
    }

    /// The first request is settled (or the connection is gone): the deadline no longer applies.
    private func decide() {
        decided = true
        deadline?.cancel()
        deadline = nil
    }

    /// Puts a ``FrameGuard`` right after the frame decoder. The upgrade handler replays the bytes it
    /// held back only after this event, and they pass through this handler first, so no frame is decoded
    /// before the guard is in place.
    private func installFrameGuard(context: ChannelHandlerContext) {
        let operations = context.pipeline.syncOperations
        do {
            let decoder = try operations.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self)
            try operations.addHandler(
                FrameGuard(configuration: configuration.frames, logger: logger),
                position: .after(decoder.handler)
            )
        } catch {
            // Without its guard the connection must not run at all.
            logger.error("could not guard the WebSocket frames: \(error); closing")
            context.close(promise: nil)
        }
    }
}
