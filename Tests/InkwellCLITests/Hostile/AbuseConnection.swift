import Foundation
import InkwellSync
import InkwellTesting
import InkwellWire

/// A sync connection for the access abuse cases: the upgrade with any `Host`, `Origin` and source
/// address, then whole protocol messages, decoded on the way back, and a watch on how the server ends it.
///
/// Blocking, like ``RawSocket``: use it on a thread of its own, never on Swift's cooperative pool. One
/// thread at a time uses it, except that a writer thread may push precomputed bytes through ``socket``
/// while another reads: the kernel keeps the two directions apart.
final class AbuseConnection: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// An HTTP answer to an upgrade other than 101.
    struct Refusal: Error, CustomStringConvertible {
        /// The status, if the answer had a status line.
        let status: Int?
        /// The answer's head, or how the connection ended without one.
        let head: String

        var description: String { "\(status.map(String.init) ?? "no status"): \(head.prefix(120))" }
    }

    /// What one read brought.
    enum Event {
        case message(ServerMessage)
        /// A binary frame that is not a server message.
        case undecodable(Int)
        case close(code: UInt16?, reason: String)
        /// The server closed the TCP connection (FIN or reset).
        case ended(RawSocket.Received)
        case timedOut
    }

    /// An error frame as it came.
    struct ErrorFrame: Equatable, CustomStringConvertible {
        let code: UInt32
        let message: String
        let fatal: Bool
        let room: String

        var description: String { "error \(code)\(fatal ? " fatal" : "") [\(room)] \(message)" }
    }

    /// How the server ended a connection that broke a rule.
    struct Ending: CustomStringConvertible {
        var errors: [ErrorFrame] = []
        var acks: [PackID] = []
        var accesses: [(room: String, rights: Rights)] = []
        var closeCode: UInt16?
        var closeReason = ""
        /// From the start of the watch to the close frame, and to the end of the TCP connection.
        var closeFrameAfter: Duration?
        var endedAfter: Duration?

        var fatalCodes: [UInt32] { errors.filter(\.fatal).map(\.code) }

        var description: String {
            let code = closeCode.map(String.init) ?? "none"
            let frame = closeFrameAfter.map { " after \($0.wholeMilliseconds) ms" } ?? ""
            let ended = endedAfter.map { ", socket closed after \($0.wholeMilliseconds) ms" } ?? ", socket still open"
            let shown = errors.count > 3 ? Array(errors.prefix(2)) + [errors.last!] : errors
            return "close \(code)\(frame)\(ended); \(errors.count) error frames \(shown)"
        }
    }

    let socket: RawSocket
    private var buffer: [UInt8]
    private var random: SeededGenerator
    /// The device this connection said hello as.
    private(set) var device: ReplicaID?

    private init(socket: RawSocket, buffer: [UInt8], random: SeededGenerator) {
        self.socket = socket
        self.buffer = buffer
        self.random = random
    }

    /// Sends `request` on a fresh socket from `source` and reads the answer's head: the status and the
    /// head, and the socket with what came after the head.
    static func exchange(
        port: Int,
        source: String? = nil,
        request: String,
        timeout: Duration = .seconds(10)
    ) throws -> (status: Int?, head: String, socket: RawSocket, rest: [UInt8]) {
        let socket = try RawSocket(port: port, source: source)
        guard socket.send(Array(request.utf8)) else {
            throw Failure(description: "could not send the request from \(source ?? "127.0.0.1")")
        }
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        let terminator = Array("\r\n\r\n".utf8)
        while true {
            if let end = received.firstRange(of: terminator) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let status = head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
                return (status, head, socket, Array(received[end.upperBound...]))
            }
            let outcome = socket.receive(into: &received, until: deadline)
            guard case .bytes = outcome else {
                socket.close()
                return (
                    nil, "no answer: \(outcome); \(String(decoding: received.prefix(200), as: UTF8.self))", socket, []
                )
            }
        }
    }

    /// A WebSocket upgrade of `/sync`, from `source`, naming `host` (default `127.0.0.1:PORT`) and
    /// sending `origin` if given: the upgraded connection, or the server's other answer.
    static func upgrade(
        port: Int,
        source: String? = nil,
        host: String? = nil,
        origin: String? = nil,
        random: inout SeededGenerator
    ) throws -> Result<AbuseConnection, Refusal> {
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }).base64EncodedString()
        var request =
            "GET /sync HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        request += "\r\n"
        let answer = try exchange(port: port, source: source, request: request)
        guard answer.status == 101 else {
            answer.socket.close()
            return .failure(Refusal(status: answer.status, head: answer.head))
        }
        return .success(
            AbuseConnection(socket: answer.socket, buffer: answer.rest, random: SeededGenerator(seed: random.next()))
        )
    }

    /// Upgraded and past hello, as a new device; throws if the server refuses either.
    static func open(port: Int, source: String? = nil, random: inout SeededGenerator) throws -> AbuseConnection {
        switch try upgrade(port: port, source: source, random: &random) {
        case .failure(let refusal): throw Failure(description: "upgrade refused: \(refusal)")
        case .success(let connection):
            try connection.hello(device: ReplicaID(using: &random))
            return connection
        }
    }

    /// A fresh masking key.
    func maskKey() -> [UInt8] {
        (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// `message` as one masked binary frame, ready to send.
    func frame(_ message: ClientMessage) -> [UInt8] {
        RawFrame.binary(SyncCodec.encode(message), mask: maskKey()).bytes
    }

    /// Sends `messages` in one write; false if the server has gone.
    @discardableResult
    func send(_ messages: ClientMessage...) -> Bool {
        socket.send(messages.flatMap { frame($0) })
    }

    /// Says hello as `device` and waits for the welcome.
    func hello(device: ReplicaID) throws {
        let hello = ClientMessage.hello(
            protocolVersion: SyncProtocol.version,
            minimumProtocolVersion: SyncProtocol.minimumVersion,
            device: device,
            agent: "inkwell-abuse/1"
        )
        guard send(hello) else { throw Failure(description: "could not send hello") }
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            switch next(until: deadline) {
            case .message(.welcome):
                self.device = device
                return
            case let event: throw Failure(description: "expected welcome, got \(event)")
            }
        }
    }

    /// The next server message or ending, waiting at most until `deadline`. Pings are answered as a
    /// client must; pongs are skipped.
    func next(until deadline: ContinuousClock.Instant) -> Event {
        while true {
            while let frame = ReceivedFrame.take(from: &buffer) {
                switch frame.opcode {
                case RawFrame.binary:
                    guard let message = try? SyncCodec.decodeServer(frame.payload) else {
                        return .undecodable(frame.payload.count)
                    }
                    return .message(message)
                case RawFrame.close:
                    return .close(code: frame.closeCode, reason: frame.closeReason)
                case RawFrame.ping:
                    socket.send(RawFrame(opcode: RawFrame.pong, payload: frame.payload, maskKey: maskKey()).bytes)
                default:
                    continue
                }
            }
            let received = socket.receive(into: &buffer, until: deadline)
            switch received {
            case .bytes: continue
            case .timedOut: return .timedOut
            case .endOfStream, .reset: return .ended(received)
            }
        }
    }

    /// Subscribes to `room` with `capability` and returns the server's answer for that room: `access`
    /// or an error (catch-up, progress and presence on the way are skipped).
    func subscribe(room: String, capability: String, timeout: Duration = .seconds(10)) throws -> ServerMessage {
        guard send(.subscribe(room: room, after: 0, capability: capability)) else {
            throw Failure(description: "could not send subscribe")
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            switch next(until: deadline) {
            case .message(let message):
                switch message {
                case .access(room, _, _), .error(_, _, _, room), .error(_, _, true, _): return message
                default: continue
                }
            case let event: throw Failure(description: "no answer to subscribe: \(event)")
            }
        }
    }

    /// Subscribes to `room` with `capability` and returns once the server grants `rights`; throws with the
    /// server's answer otherwise. For cases whose attack needs the grant first.
    func join(room: String, capability: Capability, rights: Rights) throws {
        let answer = try subscribe(room: room, capability: capability.text)
        guard case .access(room, rights, true) = answer else {
            throw Failure(description: "subscribing with the \(rights) link was answered \(answer)")
        }
    }

    /// Sends a ping and waits for its pong: true when the server answered, so the connection is open
    /// and the server has read all that was sent before it. Messages on the way are skipped; an error
    /// frame or a close among them fails it.
    func ping(timeout: Duration = .seconds(10)) -> (answered: Bool, seen: [String]) {
        let token = (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
        guard socket.send(RawFrame(opcode: RawFrame.ping, payload: token, maskKey: maskKey()).bytes) else {
            return (false, ["the ping could not be sent"])
        }
        var seen: [String] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            while let frame = ReceivedFrame.take(from: &buffer) {
                switch frame.opcode {
                case RawFrame.pong where frame.payload == token:
                    return (seen.isEmpty, seen)
                case RawFrame.close:
                    seen.append("close \(frame.closeCode.map(String.init) ?? "-") \(frame.closeReason)")
                case RawFrame.binary:
                    if case .error(let code, let message, let fatal, _) = try? SyncCodec.decodeServer(frame.payload) {
                        seen.append("error \(code) fatal \(fatal): \(message)")
                    }
                case RawFrame.ping:
                    socket.send(RawFrame(opcode: RawFrame.pong, payload: frame.payload, maskKey: maskKey()).bytes)
                default:
                    continue
                }
            }
            let received = socket.receive(into: &buffer, until: deadline)
            guard case .bytes = received else { return (false, seen + ["no pong: \(received)"]) }
        }
    }

    /// Reads until the server ends the connection or `limit` passes, noting error frames, acks, grants
    /// and the close frame (not answered: a hostile peer need not, and the server must drop it anyway).
    func awaitEnding(limit: Duration, since start: ContinuousClock.Instant = .now) -> Ending {
        var ending = Ending()
        let deadline = start + limit
        while true {
            switch next(until: deadline) {
            case .message(.error(let code, let message, let fatal, let room)):
                ending.errors.append(ErrorFrame(code: code, message: message, fatal: fatal, room: room))
            case .message(.ack(_, let pack, _)):
                ending.acks.append(pack)
            case .message(.access(let room, let rights, _)):
                ending.accesses.append((room, rights))
            case .message, .undecodable:
                continue
            case .close(let code, let reason):
                if ending.closeFrameAfter == nil {
                    ending.closeFrameAfter = .now - start
                    ending.closeCode = code
                    ending.closeReason = reason
                }
            case .ended:
                ending.endedAfter = .now - start
                return ending
            case .timedOut:
                return ending
            }
        }
    }

    /// Reads until each of `packs` is acknowledged, an error comes or `timeout` passes: the acks seen,
    /// and the errors.
    func awaitAcks(_ packs: Set<PackID>, timeout: Duration = .seconds(10)) -> (acked: Set<PackID>, errors: [String]) {
        var acked: Set<PackID> = []
        var errors: [String] = []
        let deadline = ContinuousClock.now + timeout
        while !packs.isSubset(of: acked) {
            switch next(until: deadline) {
            case .message(.ack(_, let pack, _)): acked.insert(pack)
            case .message(.error(let code, let message, let fatal, _)):
                errors.append("error \(code) fatal \(fatal): \(message)")
                if fatal { return (acked, errors) }
            case .message, .undecodable: continue
            case let event:
                errors.append("\(event)")
                return (acked, errors)
            }
        }
        return (acked, errors)
    }

    /// Closes as an honest client would: a close frame, then the socket.
    func closeNormally() {
        socket.send(RawFrame(opcode: RawFrame.close, payload: RawFrame.closePayload(1000), maskKey: maskKey()).bytes)
        socket.close()
    }
}

/// Runs blocking work on threads of their own, off Swift's cooperative pool (whose few threads the
/// honest peers' waits and the test itself share).
enum Blocking {
    /// `body` on a new thread; the caller suspends until it returns.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    /// `body` started on a new thread now; ``Background/wait()`` blocks for its value.
    final class Background<Value: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var value: Value?

        init(_ body: @escaping @Sendable () -> Value) {
            Thread.detachNewThread { [self] in
                value = body()
                done.signal()
            }
        }

        /// Blocks until the thread has finished; then its value.
        func wait() -> Value {
            done.wait()
            done.signal()
            return value!
        }
    }
}

/// The byte range of a length-delimited field at the top level of a protocol-buffer message.
enum ProtobufScan {
    static func field(_ number: UInt64, in bytes: [UInt8]) -> Range<Int>? {
        var index = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while index < bytes.count {
            guard let key = varint() else { return nil }
            switch key & 7 {
            case 0: guard varint() != nil else { return nil }
            case 1: index += 8
            case 5: index += 4
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count - index) else { return nil }
                let range = index..<(index + Int(length))
                if key >> 3 == number { return range }
                index = range.upperBound
            default: return nil
            }
        }
        return nil
    }
}
