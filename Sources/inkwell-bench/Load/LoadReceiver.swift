import InkwellWire
import NIOCore
import NIOWebSocket
import Synchronization

/// Reads one member's connection on its event loop: decodes each server frame as it arrives, times
/// every pack, ack and presence in it, answers pings and closes, and hands the member's figures over
/// when the connection ends.
final class LoadReceiver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// What the connection saw, and how it ended.
    struct Ending: Sendable {
        var stats = MemberStats()
        var closeCode: UInt16?
        var closeReason = ""
    }

    private let run: LoadRun
    private let member: LoadMember
    private let ended: EventLoopPromise<Ending>
    private var ending = Ending()
    private var progressFrames = 0
    /// Whether a close went out, ours or the answer to the server's: a second one may not.
    private var sentClose = false
    private var finished = false

    /// - Parameter ended: completed with the member's figures once the connection has ended.
    init(run: LoadRun, member: LoadMember, ended: EventLoopPromise<Ending>) {
        self.run = run
        self.member = member
        self.ended = ended
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .binary:
            let now = ContinuousClock.now
            do {
                receive(try SyncCodec.decodeServer(Array(frame.unmaskedData.readableBytesView)), at: now)
            } catch {
                if ending.stats.firstError == nil { ending.stats.firstError = "undecodable frame: \(error)" }
                context.close(promise: nil)
            }
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)),
                promise: nil
            )
        case .connectionClose:
            var data = frame.unmaskedData
            ending.closeCode = data.readInteger(as: UInt16.self)
            ending.closeReason = data.readString(length: data.readableBytes) ?? ""
            // The answer to our close ends the connection; the server's own close is answered first,
            // echoing its code.
            guard !sentClose else {
                context.close(promise: nil)
                return
            }
            var echo = context.channel.allocator.buffer(capacity: 2)
            if let code = ending.closeCode { echo.writeInteger(code) }
            // The channel, not the context, is closed afterwards: the context may not leave the event loop.
            let channel = context.channel
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: echo))
            ).whenComplete { _ in channel.close(promise: nil) }
        default:
            break
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if unwrapOutboundIn(data).opcode == .connectionClose { sentClose = true }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if ending.stats.firstError == nil { ending.stats.firstError = "connection failed: \(error)" }
        context.close(promise: nil)
    }

    /// Settles the member and hands its figures over, once.
    private func finish() {
        guard !finished else { return }
        finished = true
        var ending = self.ending
        if ending.stats.live {
            member.isLive.store(false, ordering: .releasing)
            run.recorder.left(room: member.roomIndex)
        } else {
            member.settle(.failed)
            run.recorder.failedMembers.add(1, ordering: .relaxed)
        }
        if run.recorder.phase < .closing {
            ending.stats.unexpectedCloses = 1
            ending.stats.unexpectedClose =
                "code \(ending.closeCode.map { "\($0)" } ?? "none"): \(ending.closeReason)"
        }
        ended.succeed(ending)
    }

    private func receive(_ message: ServerMessage, at now: ContinuousClock.Instant) {
        ending.stats.framesReceived += 1
        switch message {
        case .packs(_, let packs, _):
            if packs.count > 1 { ending.stats.coalescedFrames += 1 }
            for pack in packs {
                guard let id = try? PackCodec.header(of: pack.bytes).id else { continue }
                if let latency = run.recorder.received(id, at: now) { ending.stats.remote.record(latency) }
            }
        case .ack(_, let pack, _):
            if let latency = run.recorder.acknowledged(pack, at: now) { ending.stats.ack.record(latency) }
        case .presence(let presence):
            received(presence, at: now)
        case .presences(let presences):
            ending.stats.presenceBatches += 1
            for presence in presences { received(presence, at: now) }
        case .progress(let room, _, _, _):
            // The first progress opens the catch-up, the second says it is done.
            guard room == member.room else { break }
            progressFrames += 1
            if progressFrames == 2 {
                ending.stats.live = true
                member.isLive.store(true, ordering: .releasing)
                member.settle(.live)
                run.recorder.becameLive(room: member.roomIndex)
            }
        case .welcome, .access, .rebase:
            break
        case .error(let code, let message, let fatal, _):
            ending.stats.errorFrames += 1
            if ending.stats.firstError == nil {
                ending.stats.firstError = "error \(code)\(fatal ? ", fatal" : ""): \(message)"
            }
        }
    }

    /// Times a presence frame against the frame its sender logged.
    private func received(_ presence: Presence, at now: ContinuousClock.Instant) {
        guard let cursor = presence.cursor, let ink = presence.ink, let sender = run.senders[presence.device] else {
            return
        }
        let sent = run.members[sender].sentPresence.withLock {
            $0.find(cursorX: cursor.x, cursorY: cursor.y, inkBytes: ink.points.count)
        }
        guard let sent else {
            if run.recorder.phase == .measuring { ending.stats.presenceUnmatched += 1 }
            return
        }
        guard sent.measured else { return }
        ending.stats.presenceReceipts += 1
        ending.stats.presence.record(now - sent.sentAt)
    }
}
