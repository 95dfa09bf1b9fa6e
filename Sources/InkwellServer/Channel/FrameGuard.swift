import InkwellWire
import Logging
import NIOCore
import NIOWebSocket

/// Holds a WebSocket connection to RFC 6455 below the WebSocket library, which accepts unmasked client
/// frames and, after a frame with reserved bits or a reserved opcode, sends close 1002 but goes on
/// delivering frames and waits on a peer that ignores the close.
///
/// It sits right after the frame decoder (``HandshakeGuard`` puts it there before the first frame is
/// decoded), so it sees every frame before the library and the session do. On a violation it sends
/// close 1002 itself, passes nothing more up, and drops the socket when the peer answers the close.
/// On the way out it lets nothing follow a close frame, drops the socket of a peer that has not answered
/// our close within ``Configuration/closeTimeout`` (the layers above wait longer), and while the server
/// shuts down it turns the library's close 1000 into 1001, going away, as the session says.
final class FrameGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    struct Configuration: Sendable {
        /// How long the peer has to answer our close after a violation.
        var closeTimeout: TimeAmount
        /// Whether the server is shutting down (read when a close frame goes out).
        var isDraining: @Sendable () -> Bool
        /// Counts a violation in the server's metrics, by a reason from a small fixed set.
        var countViolation: @Sendable (_ reason: String) -> Void
    }

    private let configuration: Configuration
    private let logger: Logger
    /// A violation was found: nothing more goes up, and the socket is about to be dropped.
    private var failed = false
    private var peerSentClose = false
    private var closeSent = false
    /// Set by the server's quiesce event, in case it comes before the draining flag is read.
    private var quiescing = false
    private var dropping: Scheduled<Void>?

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !failed else {
            // The peer answered our close: the server closes the TCP connection (RFC 6455 §7.1.1).
            if frame.opcode == .connectionClose { context.close(promise: nil) }
            return
        }
        if let violation = Self.violation(of: frame) {
            fail(context: context, reason: violation)
            return
        }
        if frame.opcode == .connectionClose { peerSentClose = true }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { quiescing = true }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // RFC 6455 §5.5.1: nothing may follow a close frame.
        guard !closeSent else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        var frame = unwrapOutboundIn(data)
        if frame.opcode == .connectionClose {
            closeSent = true
            if !peerSentClose {
                if frame.data.peekWebSocketErrorCode() == .normalClosure, quiescing || configuration.isDraining() {
                    frame = Self.closeFrame(.goingAway, reason: ServerSession.shuttingDownReason, context: context)
                }
                dropUnanswered(context: context)
            }
        }
        context.write(wrapOutboundOut(frame), promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        dropping?.cancel()
        dropping = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        dropping?.cancel()
        dropping = nil
    }

    /// What is wrong with a client frame at this layer, or nil. No extension is negotiated, so every
    /// reserved bit must be clear.
    static func violation(of frame: WebSocketFrame) -> String? {
        guard frame.maskKey != nil else { return "client frames must be masked" }
        guard frame.reservedBits.isEmpty else { return "reserved bits set with no extension negotiated" }
        switch frame.opcode {
        case .continuation, .text, .binary, .connectionClose, .ping, .pong: return nil
        default: return "reserved opcode \(UInt8(webSocketOpcode: frame.opcode))"
        }
    }

    private func fail(context: ChannelHandlerContext, reason: String) {
        failed = true
        configuration.countViolation("websocket")
        logger.info("closing", metadata: ["code": "1002", "reason": "\(reason)"])
        if !closeSent {
            closeSent = true
            context.writeAndFlush(
                wrapOutboundOut(Self.closeFrame(.protocolError, reason: reason, context: context)),
                promise: nil
            )
        }
        dropUnanswered(context: context)
    }

    /// Our close is out: the peer has ``Configuration/closeTimeout`` to answer it before the socket is
    /// dropped, whichever layer sent it and whatever the layers above still wait for.
    private func dropUnanswered(context: ChannelHandlerContext) {
        guard dropping == nil else { return }
        let logger = logger
        dropping = context.eventLoop.assumeIsolated().scheduleTask(in: configuration.closeTimeout) {
            logger.info("peer did not answer the close in time: dropping the socket")
            context.close(promise: nil)
        }
    }

    private static func closeFrame(
        _ code: WebSocketErrorCode,
        reason: String,
        context: ChannelHandlerContext
    ) -> WebSocketFrame {
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
    }
}
