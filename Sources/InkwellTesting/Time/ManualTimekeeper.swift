public import InkwellSync
import Synchronization

/// A ``Timekeeper`` whose time moves only when the test says: ``advance(by:)`` wakes each sleeper whose
/// time has come, in the order of their deadlines. A test waits for the shell under it to be asleep
/// (``sleepers``) and then moves time past a timeout, instead of waiting for it.
public final class ManualTimekeeper: Timekeeper {
    private let origin = ContinuousClock.now
    private let elapsed = Mutex<Duration>(.zero)
    private let asleep = Sleepers<Duration>()

    public init() {}

    /// The instant it started at, advanced by every ``advance(by:)`` since.
    public var now: ContinuousClock.Instant {
        origin + elapsed.withLock { $0 }
    }

    /// Tasks asleep on it now.
    public var sleepers: Int { asleep.count }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        try await asleep.sleep(until: elapsed.withLock { $0 } + duration)
    }

    /// Moves time on by `duration` and wakes every sleeper whose deadline it reached, earliest first.
    public func advance(by duration: Duration) {
        let now = elapsed.withLock { elapsed in
            elapsed += duration
            return elapsed
        }
        asleep.wake(through: now)
    }
}
