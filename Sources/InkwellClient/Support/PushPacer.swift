/// Spaces pushes out so that a burst of edits never trips the server's rate limit (a token bucket of
/// 200 packs per second by default; over it, the server closes the connection with 1008).
///
/// Pacing costs nothing in throughput: while pushes wait, new edits gather in the outbox, and the next
/// pack planned carries all of them.
package struct PushPacer: Sendable {
    /// Pushes per second, sustained.
    package let rate: Double
    /// Pushes that may go at once after a quiet spell.
    package let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant

    package init(rate: Double, burst: Double, now: ContinuousClock.Instant) {
        precondition(rate > 0 && burst >= 1, "a pacer needs a positive rate and room for one push")
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = now
    }

    /// Takes the next push's token: how long to wait before sending it (zero when it may go now).
    ///
    /// - Complexity: O(1).
    package mutating func delay(now: ContinuousClock.Instant) -> Duration {
        let elapsed = now - last
        last = max(now, last)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        tokens = min(burst, tokens + max(seconds, 0) * rate)
        tokens -= 1
        guard tokens < 0 else { return .zero }
        return .nanoseconds(Int64((-tokens / rate * 1e9).rounded()))
    }
}
