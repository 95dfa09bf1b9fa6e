/// A token bucket: `rate` events per second sustained, `burst` at once.
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

    /// Takes one token if there is one.
    mutating func take(now: ContinuousClock.Instant = .now) -> Bool {
        let elapsed = now - last
        last = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        tokens = min(burst, tokens + seconds * rate)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
