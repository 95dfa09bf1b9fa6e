import InkwellSync
import Logging
import NIOCore
import Synchronization

/// The server's side of one WebSocket: its protocol session, its outbound queue and the pump that
/// writes it, and the pushes it has waiting for a commit.
final class Connection: Sendable {
    /// A number unique within this server process, for logs and for the hub's membership tables.
    let id: UInt64
    let logger: Logger
    let queue: OutboundQueue
    let pump: OutboundPump
    let session: Mutex<ServerSession>
    /// This connection's pushes waiting for their commit (``ServerLimits/maximumPushesInFlight`` and
    /// ``ServerLimits/maximumPushBytesInFlight``).
    let pushes: PushGate
    let channel: any Channel
    /// What ended the reader, when the WebSocket layer refused the peer's frames.
    let failure = Mutex<(any Error)?>(nil)

    init(
        id: UInt64,
        session: ServerSession,
        limits: ServerLimits,
        channel: any Channel,
        presenceHold: Duration,
        metrics: ServerMetrics,
        logger: Logger
    ) {
        self.id = id
        self.logger = logger
        self.channel = channel
        let queue = OutboundQueue(
            budget: limits.sendBufferBytes,
            headroom: limits.sendBufferHeadroom,
            holdsPresence: presenceHold > .zero
        )
        self.queue = queue
        self.pump = OutboundPump(
            queue: queue,
            writer: FrameWriter(channel: channel, maximumFrameBytes: limits.maximumFrameBytes),
            presenceHold: TimeAmount(presenceHold),
            metrics: metrics
        )
        self.session = Mutex(session)
        self.pushes = PushGate(limit: limits.maximumPushesInFlight, bytes: limits.maximumPushBytesInFlight)
    }

    /// The device that said hello, once it has.
    var device: ReplicaID? { session.withLock { $0.device } }

    /// Queues an item whatever the send buffer holds, up to its ceiling (``OutboundQueue/push(_:)``).
    /// (The hub offers frames and presence to the queue itself, and starts the drains once its lock is
    /// released.)
    func push(_ item: Outbound) {
        start(queue.push(item))
    }

    /// Starts the drain an admission asks for, or drops a connection whose queue overflowed: its peer
    /// reads nothing, so the frame that must arrive, and a close, could never be sent.
    func start(_ admission: OutboundQueue.Admission) {
        guard admission == .overflowed else {
            pump.start(admission)
            return
        }
        logger.info("peer reads nothing of what it is sent: dropping the socket")
        pump.start(queue.finish())
        channel.close(promise: nil)
    }

    /// Nothing more will be queued: the pump ends after what is waiting.
    func finishSending() {
        pump.start(queue.finish())
    }
}

/// Bounds pushes waiting for their commit, by count and by bytes: past either limit the pusher stops
/// reading, so a fast pusher is slowed by TCP instead of growing the server's memory. Each connection
/// has one (64 pushes, 16 MiB), and the server one for all connections (``ServerLimits/maximumPushBytesWaiting``).
/// A push larger than the byte limit is let in when nothing else waits, so no push is refused for ever.
/// Waiters are admitted in order: a large push is not overtaken for ever by small ones.
final class PushGate: Sendable {
    private struct State {
        var inFlight = 0
        var bytes = 0
        var waiters: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []

        func fits(_ bytes: Int, limit: Int, byteLimit: Int) -> Bool {
            inFlight == 0 || (inFlight < limit && self.bytes + bytes <= byteLimit)
        }

        mutating func enter(_ bytes: Int) {
            inFlight += 1
            self.bytes += bytes
        }
    }

    let limit: Int
    let byteLimit: Int
    private let state = Mutex(State())

    init(limit: Int, bytes: Int = .max) {
        self.limit = max(1, limit)
        self.byteLimit = max(1, bytes)
    }

    /// Waits until a push of `bytes` fits, then counts it.
    func enter(bytes: Int = 0) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                if state.waiters.isEmpty, state.fits(bytes, limit: limit, byteLimit: byteLimit) {
                    state.enter(bytes)
                    return true
                }
                state.waiters.append((bytes, continuation))
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// A push of `bytes` was committed or failed: admit the waiters that now fit, in order.
    func leave(bytes: Int = 0) {
        let admitted = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.inFlight -= 1
            state.bytes -= bytes
            assert(state.inFlight >= 0 && state.bytes >= 0, "a push left that never entered")
            var admitted: [CheckedContinuation<Void, Never>] = []
            while let first = state.waiters.first, state.fits(first.bytes, limit: limit, byteLimit: byteLimit) {
                state.waiters.removeFirst()
                state.enter(first.bytes)
                admitted.append(first.continuation)
            }
            return admitted
        }
        for continuation in admitted { continuation.resume() }
    }

    /// Pushes and bytes counted now.
    var load: (pushes: Int, bytes: Int) { state.withLock { ($0.inFlight, $0.bytes) } }

    /// Pushes waiting to enter.
    var waiters: Int { state.withLock { $0.waiters.count } }
}
