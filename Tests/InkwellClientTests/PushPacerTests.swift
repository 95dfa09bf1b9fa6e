import InkwellClient
import InkwellTesting
import Testing

@Suite struct PushPacerTests {
    @Test func aBurstGoesAtOnceThenPushesAreSpacedByTheRate() {
        let start = ContinuousClock.now
        var pacer = PushPacer(rate: 100, burst: 20, now: start)
        let delays = (0..<23).map { _ in pacer.delay(now: start) }
        #expect(delays.prefix(20).allSatisfy { $0 == .zero })
        #expect(delays.suffix(3) == [.milliseconds(10), .milliseconds(20), .milliseconds(30)])
    }

    @Test func noStretchOfTimeCarriesMoreThanTheBurstPlusTheRate() {
        var random = SeededGenerator(seed: seed("noStretchOfTimeCarriesMoreThanTheBurstPlusTheRate"))
        let start = ContinuousClock.now
        var pacer = PushPacer(rate: 50, burst: 10, now: start)
        var now = start
        var sent: [ContinuousClock.Instant] = []
        for _ in 0..<2_000 {
            // Pushes are asked for at random moments, sometimes in bursts, sometimes after a pause.
            now += .microseconds(Int64.random(in: 0...40_000, using: &random) * (Bool.random(using: &random) ? 1 : 0))
            sent.append(now + pacer.delay(now: now))
        }
        #expect(zip(sent, sent.dropFirst()).allSatisfy { $0 <= $1 }, "pushes keep their order")
        for window in [Duration.milliseconds(100), .seconds(1), .seconds(5)] {
            let seconds = Double(window.components.seconds) + Double(window.components.attoseconds) * 1e-18
            let allowed = Int((10 + seconds * 50).rounded(.down))
            var first = 0
            for last in sent.indices {
                while sent[last] - sent[first] > window { first += 1 }
                #expect(last - first + 1 <= allowed + 1, "\(last - first + 1) pushes within \(window)")
            }
        }
    }

    @Test func aQuietSpellRefillsTheBurstAndNoMore() {
        let start = ContinuousClock.now
        var pacer = PushPacer(rate: 10, burst: 3, now: start)
        for _ in 0..<3 { _ = pacer.delay(now: start) }
        let later = start + .seconds(60)
        let delays = (0..<5).map { _ in pacer.delay(now: later) }
        #expect(delays == [.zero, .zero, .zero, .milliseconds(100), .milliseconds(200)])
    }
}
