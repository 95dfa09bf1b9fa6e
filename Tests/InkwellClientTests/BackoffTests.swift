import InkwellClient
import InkwellTesting
import Testing

@Suite struct BackoffTests {
    @Test func ceilingDoublesFromTwiceTheMinimumUpToTheMaximum() {
        let backoff = Backoff()
        let ceilings = (0..<9).map { backoff.ceiling(attempt: $0) }
        #expect(
            ceilings == [
                .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1_600),
                .milliseconds(3_200), .milliseconds(6_400), .seconds(10), .seconds(10), .seconds(10),
            ]
        )
        #expect(backoff.ceiling(attempt: -3) == .milliseconds(200))
        #expect(Backoff(minimum: .seconds(1), maximum: .seconds(1)).ceiling(attempt: 0) == .seconds(1))
        #expect(backoff.ceiling(attempt: 10_000) == .seconds(10))
    }

    @Test func delaysStayWithinTheFloorAndTheCeiling() {
        var random = SeededGenerator(seed: seed("delaysStayWithinTheFloorAndTheCeiling"))
        let backoff = Backoff()
        for attempt in 0..<20 {
            let delays = (0..<500).map { _ in backoff.delay(attempt: attempt, using: &random) }
            let ceiling = backoff.ceiling(attempt: attempt)
            #expect(delays.allSatisfy { $0 >= .milliseconds(100) && $0 <= ceiling })
            // Full jitter, even on the first attempt: the delays spread over the whole range.
            let span = ceiling - .milliseconds(100)
            let low = delays.filter { $0 < .milliseconds(100) + span / 4 }.count
            let high = delays.filter { $0 > ceiling - span / 4 }.count
            #expect(low > 50 && high > 50, "attempt \(attempt): \(low) low, \(high) high of 500")
        }
    }

    @Test func theSameSeedGivesTheSameDelays() {
        let seed = seed("theSameSeedGivesTheSameDelays")
        let backoff = Backoff(minimum: .milliseconds(5), maximum: .seconds(1))
        func delays(_ seed: UInt64) -> [Duration] {
            var random = SeededGenerator(seed: seed)
            return (0..<30).map { backoff.delay(attempt: $0, using: &random) }
        }
        #expect(delays(seed) == delays(seed))
        #expect(delays(seed) != delays(seed &+ 1))
    }
}
