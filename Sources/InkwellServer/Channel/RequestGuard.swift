import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes

/// Guards each plain-HTTP request from the moment its head is parsed: it refuses a `Host` the server does not
/// answer (421), and closes a connection whose request body has not arrived in full within
/// ``Configuration/bodyTimeout`` (408 when no answer has begun).
///
/// It sits after the HTTP codec of every connection that is not upgraded to WebSocket, refused handshakes
/// included, so it sees what the router never does: the head of a refused handshake, and a body nobody reads
/// (Hummingbird reads the rest of a body after the answer, however slowly it comes). It also gives every
/// response the router did not make (Hummingbird's own, the WebSocket library's) the ``SecurityHeaders``.
final class RequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    struct Configuration: Sendable {
        var hosts: HostPolicy
        /// The port the server listens on.
        var port: @Sendable () -> Int
        /// How long a request's body may take to arrive in full.
        var bodyTimeout: TimeAmount
        /// Counts a response the guard gives itself, as the router's are counted.
        var countResponse: @Sendable (_ method: String, _ status: Int) -> Void
    }

    private let configuration: Configuration
    private let logger: Logger
    private var headsRead = 0
    private var answersBegun = 0
    private var deadline: Scheduled<Void>?
    /// The guard has answered and is closing the connection: nothing more goes in or out.
    private var closing = false

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            headsRead += 1
            guard configuration.hosts.permits(host: head.authority, port: configuration.port()) else {
                logger.info(
                    "request for a host this server does not answer: refusing it",
                    metadata: ["http.host": .string(String((head.authority ?? "").prefix(100)))]
                )
                configuration.countResponse(head.method.rawValue, 421)
                answer(.misdirectedRequest, "this server does not answer for that host", context: context)
                return
            }
            startDeadline(context: context)
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        guard case .head(var head) = unwrapOutboundIn(data), head.status.kind != .informational else {
            context.write(data, promise: promise)
            return
        }
        answersBegun += 1
        if head.headerFields[.contentSecurityPolicy] == nil {
            head.headerFields.append(contentsOf: SecurityHeaders.fields(socketOrigin: nil))
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func startDeadline(context: ChannelHandlerContext) {
        deadline?.cancel()
        let timeout = configuration.bodyTimeout
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            deadline = nil
            logger.info("request body not received within \(timeout): closing")
            // The route still reading the body stops with this error (first, before closing ends the body with
            // another) and answers 408 where nobody hears it: the guard's answer has gone before.
            context.fireErrorCaught(RequestBodyTimeout())
            if answersBegun == headsRead {
                closing = true
                context.close(promise: nil)
            } else {
                answer(.requestTimeout, "the request body did not arrive in time", context: context)
            }
        }
    }

    /// Answers the request just read with a JSON error and closes the connection once it is sent. Only when no
    /// earlier request still waits for its answer; else the connection is closed without one.
    private func answer(_ status: HTTPResponse.Status, _ message: String, context: ChannelHandlerContext) {
        closing = true
        deadline?.cancel()
        deadline = nil
        guard answersBegun == headsRead - 1 else {
            context.close(promise: nil)
            return
        }
        answersBegun += 1
        let body = ByteBuffer(string: #"{"error":"\#(message)"}"#)
        var head = HTTPResponse(
            status: status,
            headerFields: [
                .contentType: "application/json; charset=utf-8",
                .contentLength: String(body.readableBytes),
                .connection: "close",
            ]
        )
        head.headerFields.append(contentsOf: SecurityHeaders.fields(socketOrigin: nil))
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

/// A request body that did not arrive within the server's time for it: what a route reading it sees.
struct RequestBodyTimeout: HTTPResponseError {
    var status: HTTPResponse.Status { .requestTimeout }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONError(status: status).response(to: request)
    }
}
