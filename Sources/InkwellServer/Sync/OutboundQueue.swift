import NIOCore
import Synchronization

/// What one connection's writer does next, in order.
enum Outbound: Sendable {
    /// A whole server frame; the WebSocket writer fragments it when it is larger than a frame.
    case frame(ByteBuffer)
    /// Send the room's packs from where this connection stands, then follow the room live.
    case catchUp(room: String)
    case close(CloseCode, reason: String)
}

/// The queue between everything that produces frames for a connection and the one task that writes them.
///
/// It counts the bytes waiting, so producers that must not block (the fan-out of a commit, presence
/// relay) can see a slow reader and stop feeding it: ``offer(_:)`` refuses a frame once the budget is
/// spent, and the caller falls back to catch-up (packs) or drops the frame (presence). Frames that
/// must arrive (acks, errors, catch-up control) are ``push(_:)``ed regardless; they are small.
final class OutboundQueue: Sendable {
    let budget: Int
    private let continuation: AsyncStream<Outbound>.Continuation
    let items: AsyncStream<Outbound>
    private let queuedBytes = Mutex(0)

    init(budget: Int) {
        self.budget = budget
        (items, continuation) = AsyncStream.makeStream(of: Outbound.self)
    }

    /// Queues a frame unless more than the budget is already waiting.
    func offer(_ frame: ByteBuffer) -> Bool {
        let accepted = queuedBytes.withLock { queued in
            guard queued + frame.readableBytes <= budget || queued == 0 else { return false }
            queued += frame.readableBytes
            return true
        }
        if accepted { continuation.yield(.frame(frame)) }
        return accepted
    }

    /// Queues an item whatever the budget.
    func push(_ item: Outbound) {
        if case .frame(let frame) = item { queuedBytes.withLock { $0 += frame.readableBytes } }
        continuation.yield(item)
    }

    /// The writer took a frame off the queue.
    func written(_ frame: ByteBuffer) {
        queuedBytes.withLock { $0 -= frame.readableBytes }
    }

    var bytesWaiting: Int { queuedBytes.withLock { $0 } }

    /// No more items: the writer ends after the ones queued.
    func finish() {
        continuation.finish()
    }
}
