public import InkwellSync
import Synchronization

/// A ``Timekeeper`` whose time moves only when the test says: ``advance(by:)`` wakes each sleeper whose
/// time has come, in the order of their deadlines. A test waits for the shell under it to be asleep
/// (``sleepers``) and then moves time past a timeout, instead of waiting for it.
public final class ManualTimekeeper: Timekeeper {
    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed: Duration = .zero
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
    }

    private let origin = ContinuousClock.now
    private let state = Mutex(State())

    public init() {}

    /// The instant it started at, advanced by every ``advance(by:)`` since.
    public var now: ContinuousClock.Instant {
        origin + state.withLock(\.elapsed)
    }

    /// Tasks asleep on it now.
    public var sleepers: Int {
        state.withLock(\.sleepers.count)
    }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    // Cancelled before it got here: the handler found nothing to wake.
                    guard !Task.isCancelled else { return true }
                    state.sleepers.append(
                        Sleeper(id: id, deadline: state.elapsed + duration, continuation: continuation)
                    )
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on by `duration` and wakes every sleeper whose deadline it reached, earliest first.
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.elapsed += duration
            let elapsed = state.elapsed
            let due = state.sleepers.filter { $0.deadline <= elapsed }.sorted {
                ($0.deadline, $0.id) < ($1.deadline, $1.id)
            }
            state.sleepers.removeAll { $0.deadline <= elapsed }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
