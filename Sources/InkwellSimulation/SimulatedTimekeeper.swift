import InkwellSync
import Synchronization

/// The sleeps of the simulated devices: each wakes when the simulation's time reaches its deadline,
/// which the run loop moves to once nothing else is due sooner. Sleepers due at the same time wake in
/// the order they went to sleep.
final class SimulatedTimers: Sendable {
    private struct State {
        var deadlines = EventQueue<UInt64>()
        var sleepers: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// When the earliest sleeper is due, if any sleeps.
    var nextDeadline: UInt64? {
        state.withLock { state in
            // A cancelled sleeper left its deadline behind.
            while let time = state.deadlines.nextTime {
                let (_, id) = state.deadlines.peek()!
                if state.sleepers[id] != nil { return time }
                _ = state.deadlines.next()
            }
            return nil
        }
    }

    /// Wakes every sleeper due by `time`.
    func wake(through time: UInt64) {
        let due = state.withLock { state in
            var due: [CheckedContinuation<Void, any Error>] = []
            while let next = state.deadlines.nextTime, next <= time, let (_, id) = state.deadlines.next() {
                if let sleeper = state.sleepers.removeValue(forKey: id) { due.append(sleeper) }
            }
            return due
        }
        for sleeper in due { sleeper.resume() }
    }

    func sleep(until deadline: UInt64) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    guard !Task.isCancelled else { return true }
                    state.sleepers[id] = continuation
                    state.deadlines.schedule(id, at: deadline)
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }
}

/// A device's ``Timekeeper``: the simulation's time, and sleeps on its timers.
struct SimulatedTimekeeper: Timekeeper {
    let time: SimulatedTime
    let timers: SimulatedTimers

    var now: ContinuousClock.Instant { time.instant }

    func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return try Task.checkCancellation() }
        // Whole milliseconds, rounded up: the simulation's time moves in them.
        let (seconds, attoseconds) = duration.components
        let milliseconds = UInt64(seconds) * 1_000 + UInt64((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        try await timers.sleep(until: time.now + max(milliseconds, 1))
    }
}
