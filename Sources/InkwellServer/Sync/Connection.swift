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
    let pushes: PushGate
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
        let queue = OutboundQueue(budget: limits.sendBufferBytes, holdsPresence: presenceHold > .zero)
        self.queue = queue
        self.pump = OutboundPump(
            queue: queue,
            writer: FrameWriter(channel: channel, maximumFrameBytes: limits.maximumFrameBytes),
            presenceHold: TimeAmount(presenceHold),
            metrics: metrics
        )
        self.session = Mutex(session)
        self.pushes = PushGate(limit: limits.maximumPushesInFlight)
    }

    /// The device that said hello, once it has.
    var device: ReplicaID? { session.withLock { $0.device } }

    /// Queues an item whatever the send buffer holds. (The hub offers frames and presence to the
    /// queue itself, and starts the drains once its lock is released.)
    func push(_ item: Outbound) {
        pump.start(queue.push(item))
    }

    /// Nothing more will be queued: the pump ends after what is waiting.
    func finishSending() {
        pump.start(queue.finish())
    }
}

/// Bounds the pushes of one connection waiting for their commit: past the limit the connection stops
/// reading, so a fast pusher is slowed by TCP instead of growing the server's memory.
final class PushGate: Sendable {
    private struct State {
        var inFlight = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits until fewer than `limit` pushes are in flight, then counts one more.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                if state.inFlight < limit {
                    state.inFlight += 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// One push was committed or failed: admit a waiter if there is one.
    func leave() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            if state.waiters.isEmpty {
                state.inFlight -= 1
                return nil
            }
            // The slot passes straight to the waiter: inFlight stays the same.
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
