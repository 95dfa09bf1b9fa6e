public import HTTPTypes
import HummingbirdWSClient
public import InkwellWire
public import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// One WebSocket speaking the sync protocol's frames, with no store behind it: for tools that talk to a
/// server directly (load generators, probes, tests). ``SyncClient`` is what apps use.
public final class SyncSocket: Sendable {
    /// How the connection ended.
    public struct Closure: Hashable, Sendable {
        /// The close code the server sent, if it sent one.
        public var code: UInt16?
        public var reason: String?
    }

    /// What the server sends, decoded, in order. Ends when the connection closes; a frame that does not
    /// decode ends it with the decoding error.
    public let messages: AsyncThrowingStream<ServerMessage, any Error>
    private let outbound: WebSocketOutboundWriter
    private let reading: ReadGate
    private let ended: Task<Closure, Never>
    /// Signalled by ``close()``: from then on the server has ``closeTimeout`` to answer.
    private let closing: AsyncStream<Void>.Continuation

    /// How long a server may take to answer our close before the socket is dropped; the WebSocket
    /// layer then waits as long again for the connection to end.
    public static let closeTimeout: Duration = .seconds(2)

    private init(
        messages: AsyncThrowingStream<ServerMessage, any Error>,
        outbound: WebSocketOutboundWriter,
        reading: ReadGate,
        ended: Task<Closure, Never>,
        closing: AsyncStream<Void>.Continuation
    ) {
        self.messages = messages
        self.outbound = outbound
        self.reading = reading
        self.ended = ended
        self.closing = closing
    }

    /// Opens a socket to `url` (`ws://host:port/sync`). Says nothing: send `hello` yourself.
    ///
    /// - Throws: when the connection or the WebSocket upgrade fails.
    public static func connect(
        url: String,
        headers: HTTPFields = [:],
        maximumFrameBytes: Int = 1 << 20,
        logger: Logger
    ) async throws -> SyncSocket {
        let (messages, sink) = AsyncThrowingStream.makeStream(of: ServerMessage.self)
        let reading = ReadGate()
        let opened = Once<Result<WebSocketOutboundWriter, any Error>>()
        let (closeRequests, closing) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let ended = Task<Closure, Never> {
            do {
                let frame = try await WebSocketClient.connect(
                    url: url,
                    configuration: .init(
                        maxFrameSize: maximumFrameBytes,
                        additionalHeaders: headers,
                        closeTimeout: closeTimeout
                    ),
                    logger: logger
                ) { inbound, outbound, _ in
                    opened.resolve(.success(outbound))
                    // Reads until the server closes, or until it has not answered our close in time: the
                    // WebSocket layer waits for a reader that returns before it drops the connection.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await message in inbound.messages(maxSize: SyncProtocol.maximumFrameBytes) {
                                await reading.wait()
                                guard case .binary(let buffer) = message else { continue }
                                do {
                                    sink.yield(try SyncCodec.decodeServer(Array(buffer.readableBytesView)))
                                } catch {
                                    sink.finish(throwing: error)
                                    return
                                }
                            }
                        }
                        group.addTask {
                            var requests = closeRequests.makeAsyncIterator()
                            guard await requests.next() != nil else { return }
                            try? await Task.sleep(for: closeTimeout)
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
                sink.finish()
                return Closure(code: frame.map { UInt16(webSocketErrorCode: $0.closeCode) }, reason: frame?.reason)
            } catch {
                opened.resolve(.failure(error))
                sink.finish(throwing: error)
                return Closure(code: nil, reason: "\(error)")
            }
        }
        let outbound = try await opened.value.get()
        return SyncSocket(messages: messages, outbound: outbound, reading: reading, ended: ended, closing: closing)
    }

    public func send(_ message: ClientMessage) async throws {
        try await send(raw: SyncCodec.encode(message))
    }

    /// Sends bytes as one binary message, whatever they hold.
    public func send(raw bytes: [UInt8]) async throws {
        try await outbound.writeBinaryMessage(ByteBuffer(bytes: bytes))
    }

    /// Asks the server to close; ``closure`` tells when it has. A server that does not answer within
    /// ``closeTimeout`` has the connection dropped.
    public func close() async {
        closing.yield()
        try? await outbound.close(.normalClosure, reason: nil)
    }

    /// Waits until the connection has ended, and says how.
    public var closure: Closure {
        get async { await ended.value }
    }

    /// Stops reading from the socket, so the server sees a slow reader; ``resumeReading()`` goes on.
    public func pauseReading() {
        reading.pause()
    }

    public func resumeReading() {
        reading.resume()
    }
}

/// Lets a reader be paused and resumed from outside.
private final class ReadGate: Sendable {
    private struct State {
        var paused = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func pause() {
        state.withLock { $0.paused = true }
    }

    func resume() {
        let waiters = state.withLock { state in
            state.paused = false
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                if !state.paused { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }
}
