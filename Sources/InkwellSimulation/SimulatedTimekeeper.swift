import InkwellSync

/// The sleeps of the simulated processes, by deadline in simulated milliseconds: each wakes when the
/// simulation's time reaches it, which the run loop moves to once nothing else is due sooner.
typealias SimulatedTimers = Sleepers<UInt64>

/// A process's ``Timekeeper``: the simulation's time, and sleeps on its timers.
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
