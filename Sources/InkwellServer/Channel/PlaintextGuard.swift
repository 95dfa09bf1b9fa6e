import Logging
import NIOCore

/// Stands before the TLS handler of a connection to a TLS port and answers a client that sends plain HTTP
/// there: 400 in plain HTTP, saying the port speaks HTTPS, then the connection is closed.
///
/// Without it the TLS handshake fails on the first byte, the connection closes with no word to the client,
/// and Hummingbird logs an error for every such connection. A TLS connection starts with a handshake
/// record (content type 22); anything else is not TLS.
final class PlaintextGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let answer = """
        HTTP/1.1 400 Bad Request\r
        Content-Type: text/plain; charset=utf-8\r
        Content-Length: 34\r
        X-Content-Type-Options: nosniff\r
        Connection: close\r
        \r
        this port speaks HTTPS: use https

        """

    private let logger: Logger
    private let countViolation: @Sendable (_ reason: String) -> Void

    init(logger: Logger, countViolation: @escaping @Sendable (_ reason: String) -> Void) {
        self.logger = logger
        self.countViolation = countViolation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        guard let first = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self), first != 22 else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        countViolation("not tls")
        logger.info("plain HTTP on the TLS port: answering 400 and closing")
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: Self.answer))).assumeIsolated().whenComplete { _ in
            // Its input shut first, the upgrade handler gives up quietly, as for a peer that hung up.
            context.close(mode: .input, promise: nil)
            context.close(promise: nil)
        }
    }
}
