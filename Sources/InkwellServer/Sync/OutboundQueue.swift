import InkwellWire
import NIOCore
import Synchronization

/// What a connection sends next, in order.
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

/// The queue between everything that produces frames for a connection and the writing of them.
///
/// It counts the bytes waiting, so producers that must not block (the fan-out of a commit, presence
/// relay) can see a slow reader and stop feeding it: ``offer(_:)`` refuses a frame once the budget is
/// spent, and the caller falls back to catch-up (packs) or drops the frame (presence). Frames that
/// must arrive (acks, errors, catch-up control) are ``push(_:)``ed past the budget, up to
/// ``ceiling``: each answers something the client sent, and the connection's reader stops reading
/// while the budget is spent (``waitForRoom()``), so only the answers to what it already read can pass
/// the budget. A queue that still reaches the ceiling belongs to a peer that does not read at all: the
/// push is ``Admission/overflowed`` and the caller drops the connection.
///
/// Whoever queues into an idle queue is told so (``Admission/started``) and must have it drained
/// (``OutboundPump``); the queue stays busy until a ``take()`` finds it empty, so one drain runs at a
/// time. The drain takes everything waiting at once, so a busy connection's frames leave in one write
/// and one flush instead of one system call each. Presence from one sender to one room that is still
/// waiting is replaced by the sender's newer presence: only the latest cursor and ink matter, and the
/// newer one is queued behind everything that was queued before it.
final class OutboundQueue: Sendable {
    /// Identifies the presence that a newer one from the same sender replaces.
    struct PresenceKey: Hashable, Sendable {
        let sender: UInt64
        let room: String
    }

    /// What became of an item given to the queue.
    enum Admission: Equatable, Sendable {
        /// Over the budget, or the queue is finished.
        case refused
        /// A frame that must arrive found the queue at its ``OutboundQueue/ceiling``: the connection
        /// must be dropped, since the frame cannot be sent and the peer does not read.
        case overflowed
        /// Queued behind a drain that is already under way (or held).
        case queued
        /// Queued into an idle queue: the caller must start a drain.
        case started
        /// A presence queued into an idle queue that holds presence (``holdsPresence``): the caller must
        /// start a drain after the hold, claiming it with ``claim(hold:)``. An item that is not presence,
        /// queued meanwhile, ends the hold and is ``started``: presence never delays a pack or an ack.
        case held(hold: UInt64)

        var accepted: Bool { self != .refused && self != .overflowed }

        /// Whether the caller must start a drain (``OutboundPump/start(_:)``).
        var startsDrain: Bool {
            switch self {
            case .started, .held: true
            case .queued, .refused, .overflowed: false
            }
        }
    }

    /// What a drain finds.
    enum Taken: Sendable {
        /// Everything that was waiting, in order.
        case items([Outbound])
        /// Nothing: the queue is idle again, and the next item queued starts a drain.
        case idle
        /// Nothing, and nothing more will come.
        case finished
    }

    private struct State: Sendable {
        /// In order; nil marks presence replaced by a newer one.
        var items: [Outbound?] = []
        var presence: [PresenceKey: Int] = [:]
        /// Bytes queued or taken by the writer and not yet written.
        var bytes = 0
        var finished = false
        /// Whether a drain is under way: from the item that started it until a take finds nothing.
        var draining = false
        /// The hold under way, if the drain waits for more presence to gather: no drain has run yet.
        var hold: UInt64?
        var holds: UInt64 = 0
        /// The reader, waiting for the bytes waiting to fall to the budget (``waitForRoom()``).
        var roomWaiter: CheckedContinuation<Void, Never>?

        /// The reader's waiter, once the queue has room for it again or will never send more.
        mutating func waiterWithRoom(budget: Int) -> CheckedContinuation<Void, Never>? {
            guard bytes <= budget || finished else { return nil }
            defer { roomWaiter = nil }
            return roomWaiter
        }

        /// A frame fits when the queue is under its budget with it, or when nothing is waiting at all
        /// (so a frame larger than the budget is not refused for ever).
        func fits(_ frame: ByteBuffer, budget: Int) -> Bool {
            bytes + frame.readableBytes <= budget || bytes == 0
        }

        /// The admission of an item just queued.
        mutating func admitted(presence: Bool = false, holding: Bool) -> Admission {
            if draining {
                guard hold != nil, !presence else { return .queued }
                hold = nil
                return .started
            }
            draining = true
            guard presence, holding else { return .started }
            holds += 1
            hold = holds
            return .held(hold: holds)
        }
    }

    let budget: Int
    /// The most bytes waiting, frames that must arrive included; see ``push(_:)``.
    let ceiling: Int
    /// Whether presence that finds the queue idle waits for a drain started later (see
    /// ``OutboundPump``), so that more presence leaves in the same frame.
    let holdsPresence: Bool
    private let state = Mutex(State())

    /// - Parameters:
    ///   - budget: Bytes waiting past which frames offered are refused and the reader waits.
    ///   - headroom: Bytes of frames that must arrive allowed past the budget (``ceiling``).
    init(budget: Int, headroom: Int = 1 << 20, holdsPresence: Bool = false) {
        self.budget = budget
        self.ceiling = budget + max(0, headroom)
        self.holdsPresence = holdsPresence
    }

    /// Queues a frame unless more than the budget is already waiting.
    func offer(_ frame: ByteBuffer) -> Admission {
        state.withLock { state in
            guard !state.finished, state.fits(frame, budget: budget) else { return .refused }
            state.bytes += frame.readableBytes
            state.items.append(.frame(frame))
            return state.admitted(holding: holdsPresence)
        }
    }

    /// Queues an encoded presence unless more than the budget is already waiting, replacing the same
    /// sender's presence to the same room if that has not been taken yet.
    func offerPresence(_ presence: ByteBuffer, key: PresenceKey) -> Admission {
        state.withLock { state in
            guard !state.finished else { return .refused }
            var replaced = 0
            if let index = state.presence[key], case .presence(let older) = state.items[index] {
                replaced = older.readableBytes
            }
            guard state.bytes - replaced + presence.readableBytes <= budget || state.bytes == replaced else {
                return .refused
            }
            if let index = state.presence[key] { state.items[index] = nil }
            state.bytes += presence.readableBytes - replaced
            state.presence[key] = state.items.count
            state.items.append(.presence(presence))
            return state.admitted(presence: true, holding: holdsPresence)
        }
    }

    /// Queues an item whatever the budget, up to the ``ceiling``: refused once the queue is finished,
    /// ``Admission/overflowed`` when a frame would take it past the ceiling (and nothing is queued).
    func push(_ item: Outbound) -> Admission {
        state.withLock { state in
            guard !state.finished else { return .refused }
            if case .frame(let frame) = item {
                guard state.bytes + frame.readableBytes <= ceiling || state.bytes == 0 else { return .overflowed }
                state.bytes += frame.readableBytes
            }
            state.items.append(item)
            return state.admitted(holding: holdsPresence)
        }
    }

    /// Ends the hold `hold` for a drain that is about to run; false when an item that is not presence
    /// ended it already (and started a drain of its own).
    func claim(hold: UInt64) -> Bool {
        state.withLock { state in
            guard state.hold == hold else { return false }
            state.hold = nil
            return true
        }
    }

    /// Everything waiting, in order. The frames' bytes count against the budget until the writer
    /// reports them ``written(bytes:)``; so do presences'.
    func take() -> Taken {
        state.withLock { state in
            assert(state.hold == nil, "a drain ran while its hold was still on")
            guard !state.items.isEmpty else {
                if state.finished { return .finished }
                state.draining = false
                return .idle
            }
            defer {
                state.items.removeAll(keepingCapacity: true)
                state.presence.removeAll(keepingCapacity: true)
            }
            return .items(state.items.compactMap { $0 })
        }
    }

    /// The writer wrote frames of this many bytes that it had taken.
    func written(bytes: Int) {
        let waiter = state.withLock { state in
            state.bytes -= bytes
            return state.waiterWithRoom(budget: budget)
        }
        waiter?.resume()
    }

    /// Returns once the bytes waiting are within the budget, or the queue is finished. The connection's
    /// reader waits here before it reads the next frame, so a peer that sends without reading what it
    /// is sent is slowed by TCP instead of growing the server's memory. One waiter at a time.
    func waitForRoom() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.bytes > budget, !state.finished else { return true }
                assert(state.roomWaiter == nil, "two readers wait for one queue")
                state.roomWaiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    var bytesWaiting: Int { state.withLock { $0.bytes } }

    /// No more items: the drain ends after the ones queued. ``Admission/started`` when the caller must
    /// start a drain to find that out.
    func finish() -> Admission {
        let (admission, waiter) = state.withLock { state -> (Admission, CheckedContinuation<Void, Never>?) in
            guard !state.finished else { return (.refused, nil) }
            state.finished = true
            return (state.admitted(holding: holdsPresence), state.waiterWithRoom(budget: budget))
        }
        waiter?.resume()
        return admission
    }
}
