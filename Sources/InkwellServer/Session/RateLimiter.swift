/// A token bucket: `rate` tokens per second sustained, `burst` at once (events, or bytes).
struct RateLimiter: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant

    init(rate: Double, burst: Double, now: ContinuousClock.Instant = .now) {
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = now
    }

    /// Takes `count` tokens if there are that many.
    mutating func take(_ count: Double = 1, now: ContinuousClock.Instant = .now) -> Bool {
        let elapsed = max(now - last, .zero)
        last = max(now, last)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        tokens = min(burst, tokens + seconds * rate)
        guard tokens >= count else { return false }
        tokens -= count
        return true
    }
}
