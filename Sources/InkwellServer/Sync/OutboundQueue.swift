import NIOCore
import Synchronization

/// What one connection's writer does next, in order.
enum Outbound: Sendable {
    /// A whole server frame; the writer fragments it when it is larger than a WebSocket frame.
    case frame(ByteBuffer)
    /// A member's presence, encoded as a `Presence` message: the writer sends a run of these as one
    /// frame (``SyncCodec/presenceFrame(_:)``).
    case presence(ByteBuffer)
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
///
/// The writer takes everything waiting at once (``next()``), so a busy connection's frames leave in
/// one write and one flush instead of one system call each. Presence from one sender to one room that
/// is still waiting is replaced by the sender's newer presence: only the latest cursor and ink matter,
/// and the newer one is queued behind everything that was queued before it.
final class OutboundQueue: Sendable {
    /// Identifies the presence that a newer one from the same sender replaces.
    struct PresenceKey: Hashable, Sendable {
        let sender: UInt64
        let room: String
    }

    private struct State: Sendable {
        /// In order; nil marks presence replaced by a newer one.
        var items: [Outbound?] = []
        var presence: [PresenceKey: Int] = [:]
        /// Bytes queued or taken by the writer and not yet written.
        var bytes = 0
        var finished = false

        /// A frame fits when the queue is under its budget with it, or when nothing is waiting at all
        /// (so a frame larger than the budget is not refused for ever).
        func fits(_ frame: ByteBuffer, budget: Int) -> Bool {
            bytes + frame.readableBytes <= budget || bytes == 0
        }
    }

    let budget: Int
    private let state = Mutex(State())
    /// Wakes the writer; holds at most one wake-up, as the writer takes everything when it wakes.
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init(budget: Int) {
        self.budget = budget
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues a frame unless more than the budget is already waiting.
    func offer(_ frame: ByteBuffer) -> Bool {
        let accepted = state.withLock { state in
            guard !state.finished, state.fits(frame, budget: budget) else { return false }
            state.bytes += frame.readableBytes
            state.items.append(.frame(frame))
            return true
        }
        if accepted { wake.yield() }
        return accepted
    }

    /// Queues an encoded presence unless more than the budget is already waiting, replacing the same
    /// sender's presence to the same room if that has not been taken by the writer yet.
    func offerPresence(_ presence: ByteBuffer, key: PresenceKey) -> Bool {
        let frame = presence
        let accepted = state.withLock { state in
            guard !state.finished else { return false }
            var replaced = 0
            if let index = state.presence[key], case .presence(let older) = state.items[index] {
                replaced = older.readableBytes
            }
            guard state.bytes - replaced + frame.readableBytes <= budget || state.bytes == replaced else {
                return false
            }
            if let index = state.presence[key] { state.items[index] = nil }
            state.bytes += frame.readableBytes - replaced
            state.presence[key] = state.items.count
            state.items.append(.presence(frame))
            return true
        }
        if accepted { wake.yield() }
        return accepted
    }

    /// Queues an item whatever the budget.
    func push(_ item: Outbound) {
        let queued = state.withLock { state in
            guard !state.finished else { return false }
            if case .frame(let frame) = item { state.bytes += frame.readableBytes }
            state.items.append(item)
            return true
        }
        if queued { wake.yield() }
    }

    /// Everything waiting, in order, once there is something; nil when the queue is finished and
    /// empty, or when the waiting task is cancelled. The frames' bytes count against the budget until
    /// the writer reports them ``written(bytes:)``; so do presences'.
    func next() async -> [Outbound]? {
        var wakeups = self.wakeups.makeAsyncIterator()
        while true {
            let (taken, finished) = state.withLock { state -> ([Outbound], Bool) in
                defer {
                    state.items.removeAll(keepingCapacity: true)
                    state.presence.removeAll(keepingCapacity: true)
                }
                return (state.items.compactMap { $0 }, state.finished)
            }
            if !taken.isEmpty { return taken }
            if finished { return nil }
            guard await wakeups.next() != nil else { return nil }
        }
    }

    /// The writer wrote frames of this many bytes that it had taken.
    func written(bytes: Int) {
        state.withLock { $0.bytes -= bytes }
    }

    var bytesWaiting: Int { state.withLock { $0.bytes } }

    /// No more items: the writer ends after the ones queued.
    func finish() {
        state.withLock { $0.finished = true }
        wake.yield()
        wake.finish()
    }
}
