/// How long to wait before reconnecting: exponential with full jitter, so clients that lost the same
/// server do not all come back in the same millisecond.
///
/// The ceiling starts at twice ``minimum`` and doubles with each failed attempt up to ``maximum``; the delay
/// is drawn uniformly between ``minimum`` and the ceiling. The floor keeps a refused connection from
/// turning into a busy loop, and even the first attempt is spread over a range, so the clients of a
/// restarted server do not all knock at once.
public struct Backoff: Hashable, Sendable {
    public var minimum: Duration
    public var maximum: Duration

    public init(minimum: Duration = .milliseconds(100), maximum: Duration = .seconds(10)) {
        precondition(minimum > .zero && maximum >= minimum, "backoff needs 0 < minimum <= maximum")
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The most the delay can be before attempt `attempt` (0 for the first reconnection).
    public func ceiling(attempt: Int) -> Duration {
        var ceiling = minimum
        for _ in 0...max(attempt, 0) {
            guard ceiling < maximum else { break }
            ceiling *= 2
        }
        return min(ceiling, maximum)
    }

    /// A delay in `minimum...ceiling(attempt:)`, drawn from `generator`.
    ///
    /// - Complexity: O(log(maximum / minimum)).
    public func delay(attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let low = Self.nanoseconds(minimum)
        let high = Self.nanoseconds(ceiling(attempt: attempt))
        return .nanoseconds(Int64.random(in: low...high, using: &generator))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
