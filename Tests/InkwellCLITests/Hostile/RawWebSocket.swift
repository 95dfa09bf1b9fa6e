import Foundation
import InkwellSync
import InkwellTesting
import InkwellWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A WebSocket client over ``RawSocket``: an HTTP/1.1 upgrade, then whatever frames a test builds,
/// valid or not, and a watch on how and when the server ends the connection.
final class RawWebSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How the server ended (or did not end) a connection after the offending bytes.
    struct Ending: Sendable, CustomStringConvertible {
        /// The code of the server's close frame, if one came.
        var closeCode: UInt16?
        var closeReason = ""
        /// Messages of the error frames that came before the close.
        var errors: [String] = []
        /// The time from the offending bytes to the server's close frame.
        var closeFrameAfter: Duration?
        /// The time to the server's FIN: it stopped writing, but may still read.
        var endOfStreamAfter: Duration?
        /// The time until the server had dropped the connection for good (our writes were refused);
        /// nil while it still took our bytes at the limit.
        var closedAfter: Duration?
        /// A frame other than error, close, ping or pong (the server went on as if nothing happened).
        var otherFrames = 0
        /// What a connection that never upgraded received (an HTTP response, if any), as text.
        var response = ""

        var description: String {
            let code = closeCode.map(String.init) ?? "none"
            let finished = endOfStreamAfter.map { ", FIN after \($0.wholeMilliseconds) ms" } ?? ", no FIN"
            let closed = closedAfter.map { "closed after \($0.wholeMilliseconds) ms" } ?? "still open"
            let errorText = errors.isEmpty ? "" : ", errors \(errors)"
            let others = otherFrames == 0 ? "" : ", \(otherFrames) other frames"
            return "close code \(code)\(closeReason.isEmpty ? "" : " (\(closeReason))"), \(closed)\(finished)"
                + "\(errorText)\(others)"
        }
    }

    let socket: RawSocket
    private(set) var buffer: [UInt8] = []
    private var random: SeededGenerator
    /// False for a connection that never upgraded: what comes back is HTTP, not frames.
    let isUpgraded: Bool
    /// Frames sent right behind the offending bytes, in the same write: a valid push (after a hello if
    /// none was said). The server must not live to store them.
    var followUp: [UInt8] = []

    /// A bare TCP connection to the server's port that skips the upgrade.
    init(unupgradedPort port: Int, random: SeededGenerator) throws {
        self.random = random
        socket = try RawSocket(port: port)
        isUpgraded = false
    }

    /// Connects and upgrades to `/sync`; throws unless the server answers 101.
    init(port: Int, random: SeededGenerator) throws {
        self.random = random
        socket = try RawSocket(port: port)
        isUpgraded = true
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &self.random) }).base64EncodedString()
        let request =
            "GET /sync HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard socket.send(Array(request.utf8)) else { throw Failure(description: "could not send the upgrade") }
        let deadline = ContinuousClock.now + .seconds(10)
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = buffer.firstRange(of: terminator) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                guard head.hasPrefix("HTTP/1.1 101") else {
                    throw Failure(description: "upgrade refused: \(head.prefix(80))")
                }
                return
            }
            let received = socket.receive(into: &buffer, until: deadline)
            guard case .bytes = received else { throw Failure(description: "no upgrade answer: \(received)") }
        }
    }

    /// A fresh masking key from the seeded generator.
    func maskKey() -> [UInt8] {
        (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    @discardableResult
    func send(_ frame: RawFrame) -> Bool {
        socket.send(frame.bytes)
    }

    @discardableResult
    func send(bytes: [UInt8]) -> Bool {
        socket.send(bytes)
    }

    /// Sends the offending bytes and the follow-up, and returns the moment they were handed to the
    /// network (or refused).
    func offend(_ bytes: [UInt8]) -> ContinuousClock.Instant {
        socket.send(bytes + followUp)
        return .now
    }

    /// One binary message in one masked frame, as an honest client sends it.
    @discardableResult
    func sendBinary(_ payload: [UInt8]) -> Bool {
        socket.send(RawFrame.binary(payload, mask: maskKey()).bytes)
    }

    /// Says hello as `device` and waits for the welcome.
    func hello(device: ReplicaID) throws {
        let hello = SyncCodec.encode(
            .hello(
                protocolVersion: SyncProtocol.version,
                minimumProtocolVersion: SyncProtocol.minimumVersion,
                device: device,
                agent: "inkwell-hostile/1"
            )
        )
        guard sendBinary(hello) else { throw Failure(description: "could not send hello") }
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            while let frame = ReceivedFrame.take(from: &buffer) {
                guard frame.opcode == RawFrame.binary else {
                    throw Failure(description: "expected welcome, got opcode \(frame.opcode) \(frame.closeReason)")
                }
                guard case .welcome = try SyncCodec.decodeServer(frame.payload) else {
                    throw Failure(description: "expected welcome, got \(try SyncCodec.decodeServer(frame.payload))")
                }
                return
            }
            let received = socket.receive(into: &buffer, until: deadline)
            guard case .bytes = received else { throw Failure(description: "no welcome: \(received)") }
        }
    }

    /// Sends a ping and waits for its pong: the server has then read everything sent before it.
    func ping(_ token: [UInt8]) throws {
        guard send(RawFrame(opcode: RawFrame.ping, payload: token, maskKey: maskKey())) else {
            throw Failure(description: "could not send a ping")
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            while let frame = ReceivedFrame.take(from: &buffer) {
                if frame.opcode == RawFrame.pong, frame.payload == token { return }
                guard frame.opcode == RawFrame.ping || frame.opcode == RawFrame.pong else {
                    throw Failure(description: "expected a pong, got opcode \(frame.opcode) \(frame.closeReason)")
                }
            }
            let received = socket.receive(into: &buffer, until: deadline)
            guard case .bytes = received else { throw Failure(description: "no pong: \(received)") }
        }
    }

    /// Reads until the server drops the connection or `limit` has passed since `start` (the moment the
    /// offending bytes were sent), noting the close frame and error frames on the way. With
    /// `answeringClose`, replies to the server's close frame as RFC 6455 asks; a hostile peer may not.
    func awaitEnding(since start: ContinuousClock.Instant, limit: Duration, answeringClose: Bool) -> Ending {
        var ending = Ending()
        let deadline = start + limit
        while true {
            while isUpgraded, let frame = ReceivedFrame.take(from: &buffer) {
                switch frame.opcode {
                case RawFrame.close:
                    if ending.closeFrameAfter == nil {
                        ending.closeFrameAfter = ContinuousClock.now - start
                        ending.closeCode = frame.closeCode
                        ending.closeReason = frame.closeReason
                        if answeringClose {
                            send(
                                RawFrame(
                                    opcode: RawFrame.close,
                                    payload: RawFrame.closePayload(frame.closeCode ?? 1000),
                                    maskKey: maskKey()
                                )
                            )
                        }
                    }
                case RawFrame.binary:
                    if case .error(_, let message, _, _) = try? SyncCodec.decodeServer(frame.payload) {
                        ending.errors.append(message)
                    } else {
                        ending.otherFrames += 1
                    }
                case RawFrame.ping, RawFrame.pong:
                    break
                default:
                    ending.otherFrames += 1
                }
            }
            let received = socket.receive(into: &buffer, until: deadline)
            if !isUpgraded { ending.response = String(decoding: buffer.prefix(1_024), as: UTF8.self) }
            switch received {
            case .bytes:
                continue
            case .endOfStream:
                ending.endOfStreamAfter = ContinuousClock.now - start
                ending.closedAfter = awaitDrop(since: start, until: deadline)
                return ending
            case .reset:
                ending.closedAfter = ContinuousClock.now - start
                return ending
            case .timedOut:
                return ending
            }
        }
    }

    /// After the server's FIN: whether it also stopped reading. A socket the server has closed answers
    /// our next bytes with a reset, so the write after it fails; one that is only half closed takes them.
    /// The probes are empty pongs, which an open WebSocket ignores.
    private func awaitDrop(since start: ContinuousClock.Instant, until deadline: ContinuousClock.Instant) -> Duration? {
        while ContinuousClock.now < deadline {
            guard socket.send(RawFrame(opcode: RawFrame.pong, payload: [], maskKey: maskKey()).bytes) else {
                return ContinuousClock.now - start
            }
            usleep(5_000)
        }
        return nil
    }
}

extension Duration {
    /// Whole milliseconds, for messages.
    var wholeMilliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}
