import InkwellWire
import Synchronization

/// What the connections of a load run share: the phase, how many members are live in each room, and
/// every push with its expected and received receipts, so lost ones are counted.
///
/// Latencies themselves go into each connection's own ``LatencyHistogram``s: this only hands back
/// the duration to record, so the lock is held for a dictionary lookup and no more.
final class LoadRecorder: Sendable {
    /// One pushed pack, from just before it was written.
    struct Push: Sendable {
        let sentAt: ContinuousClock.Instant
        let measured: Bool
        /// The room's other live members when it was pushed.
        let expected: Int
        var received = 0
        var acked = false
    }

    /// Counts over the measured pushes and presence frames.
    struct Totals: Sendable {
        var pushes = 0
        var expectedReceipts = 0
        var receipts = 0
        /// Expected receipts not (yet) received: lost, once the run has drained.
        var outstandingReceipts = 0
        /// Receipts beyond the expected count of their pack (duplicates, or a member that joined late).
        var extraReceipts = 0
        var acks = 0
        /// Packs received that no member of this run pushed.
        var unknownPacks = 0
        var presenceFrames = 0
        var expectedPresenceReceipts = 0
    }

    private struct State: Sendable {
        var pushes: [PackID: Push] = [:]
        var live: [Int]
        var totals = Totals()
        /// What the members that have ended saw, merged.
        var finished = MemberStats()
        var finishedMembers = 0
    }

    private let phaseValue = Atomic<Int>(LoadPhase.connecting.rawValue)
    private let state: Mutex<State>
    /// Members whose WebSocket opened, whose subscription caught up, and that will never be live.
    let openedMembers = Atomic<Int>(0)
    let liveMembers = Atomic<Int>(0)
    let failedMembers = Atomic<Int>(0)

    init(rooms: Int) {
        state = Mutex(State(live: Array(repeating: 0, count: rooms)))
    }

    var phase: LoadPhase {
        LoadPhase(rawValue: phaseValue.load(ordering: .acquiring)) ?? .closing
    }

    func enter(_ phase: LoadPhase) {
        phaseValue.store(phase.rawValue, ordering: .releasing)
    }

    var totals: Totals { state.withLock { $0.totals } }

    /// A member ended: its connection closed, or it never opened.
    func finished(_ stats: MemberStats) {
        state.withLock { state in
            state.finished.merge(stats)
            state.finishedMembers += 1
        }
    }

    /// What the members that have ended saw, and how many they are.
    var finished: (stats: MemberStats, members: Int) { state.withLock { ($0.finished, $0.finishedMembers) } }

    /// Whether every measured push has its ack and every expected receipt.
    var isDrained: Bool {
        state.withLock { $0.totals.outstandingReceipts == 0 && $0.totals.acks == $0.totals.pushes }
    }

    /// A member's subscription caught up: it receives the room's packs live from now on.
    func becameLive(room: Int) {
        state.withLock { $0.live[room] += 1 }
        liveMembers.add(1, ordering: .relaxed)
    }

    /// A live member's connection ended.
    func left(room: Int) {
        state.withLock { $0.live[room] -= 1 }
    }

    /// Records a push about to be written.
    ///
    /// - Complexity: O(1) amortised.
    func pushing(_ pack: PackID, room: Int, at instant: ContinuousClock.Instant) {
        let measured = phase == .measuring
        state.withLock { state in
            let expected = max(0, state.live[room] - 1)
            state.pushes[pack] = Push(sentAt: instant, measured: measured, expected: expected)
            guard measured else { return }
            state.totals.pushes += 1
            state.totals.expectedReceipts += expected
            state.totals.outstandingReceipts += expected
        }
    }

    /// A member received a pack in a `packs` frame.
    ///
    /// - Returns: the time since it was pushed, if it is a measured push.
    func received(_ pack: PackID, at instant: ContinuousClock.Instant) -> Duration? {
        state.withLock { state in
            guard let push = state.pushes[pack] else {
                state.totals.unknownPacks += 1
                return nil
            }
            state.pushes[pack]!.received += 1
            guard push.measured else { return nil }
            state.totals.receipts += 1
            if push.received < push.expected {
                state.totals.outstandingReceipts -= 1
            } else {
                state.totals.extraReceipts += 1
            }
            return instant - push.sentAt
        }
    }

    /// The pusher received the ack of its pack.
    ///
    /// - Returns: the time since it was pushed, if it is a measured push acknowledged for the first time.
    func acknowledged(_ pack: PackID, at instant: ContinuousClock.Instant) -> Duration? {
        state.withLock { state in
            guard let push = state.pushes[pack], !push.acked else { return nil }
            state.pushes[pack]!.acked = true
            guard push.measured else { return nil }
            state.totals.acks += 1
            return instant - push.sentAt
        }
    }

    /// Records a presence frame about to be written.
    ///
    /// - Returns: whether it is measured.
    func sendingPresence(room: Int) -> Bool {
        guard phase == .measuring else { return false }
        state.withLock { state in
            state.totals.presenceFrames += 1
            state.totals.expectedPresenceReceipts += max(0, state.live[room] - 1)
        }
        return true
    }
}
