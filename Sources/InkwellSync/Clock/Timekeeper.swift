/// Monotonic time and sleeping, as the I/O shells see them: how long a commit waits for company, when a
/// socket that never said hello is dropped, how long a client backs off before it reconnects.
///
/// ``SystemTimekeeper`` is the system's. A test (InkwellTesting's `ManualTimekeeper`) or a simulation
/// gives its own, so that waits take none of its real time and happen when it says. Wall-clock time,
/// for stamps and records, is a ``WallClock``.
public protocol Timekeeper: Sendable {
    /// Now, on a clock that never jumps.
    var now: ContinuousClock.Instant { get }

    /// Returns once `duration` has passed on this clock; throws `CancellationError` if the task is
    /// cancelled first.
    func sleep(for duration: Duration) async throws
}

/// The system's monotonic clock, and `Task.sleep`.
public struct SystemTimekeeper: Timekeeper {
    public init() {}

    public var now: ContinuousClock.Instant { .now }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
