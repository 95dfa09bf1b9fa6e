import Synchronization
import Testing

@testable import InkwellServer

/// The gate that bounds pushes waiting for their commit, per connection and for the whole server: by
/// count and by bytes, in order, and never for ever.
@Suite struct PushGateTests {
    /// The order in which pushes got in.
    private final class Entrants: Sendable {
        let order = Mutex<[Int]>([])
        var admitted: [Int] { order.withLock { $0 } }
    }

    private func waitUntil(_ condition: () -> Bool) async {
        for _ in 0..<200 where !condition() { try? await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func pushesEnterUpToTheCountLimit() async {
        let gate = PushGate(limit: 2)
        await gate.enter()
        await gate.enter()
        #expect(gate.load.pushes == 2)
        let entrants = Entrants()
        let third = Task {
            await gate.enter()
            entrants.order.withLock { $0.append(3) }
        }
        try? await Task.sleep(for: .milliseconds(30))
        #expect(entrants.admitted.isEmpty, "a third push waits for one of two to leave")
        gate.leave()
        await third.value
        #expect(entrants.admitted == [3])
        #expect(gate.load.pushes == 2)
    }

    @Test func pushesEnterUpToTheByteLimit() async {
        let gate = PushGate(limit: 64, bytes: 100)
        await gate.enter(bytes: 60)
        let entrants = Entrants()
        let second = Task {
            await gate.enter(bytes: 50)
            entrants.order.withLock { $0.append(2) }
        }
        try? await Task.sleep(for: .milliseconds(30))
        #expect(entrants.admitted.isEmpty, "60 + 50 bytes is over the limit of 100")
        #expect(gate.load == (1, 60))
        gate.leave(bytes: 60)
        await second.value
        #expect(gate.load == (1, 50))
    }

    @Test func aPushLargerThanTheByteLimitEntersAlone() async {
        let gate = PushGate(limit: 64, bytes: 100)
        await gate.enter(bytes: 500)
        #expect(gate.load == (1, 500))
        gate.leave(bytes: 500)
        await gate.enter(bytes: 10)
        let entrants = Entrants()
        let large = Task {
            await gate.enter(bytes: 500)
            entrants.order.withLock { $0.append(500) }
        }
        try? await Task.sleep(for: .milliseconds(30))
        #expect(entrants.admitted.isEmpty, "the large push waits for the gate to empty")
        gate.leave(bytes: 10)
        await large.value
        #expect(gate.load == (1, 500))
    }

    @Test func waitersEnterInOrderSoALargePushIsNotOvertaken() async {
        let gate = PushGate(limit: 64, bytes: 100)
        await gate.enter(bytes: 90)
        let entrants = Entrants()
        let large = Task {
            await gate.enter(bytes: 80)
            entrants.order.withLock { $0.append(80) }
        }
        await waitUntil { gate.waiters == 1 }
        let small = Task {
            await gate.enter(bytes: 5)
            entrants.order.withLock { $0.append(5) }
        }
        try? await Task.sleep(for: .milliseconds(30))
        #expect(entrants.admitted.isEmpty, "5 bytes would fit, but the 80 waiting before it goes first")
        gate.leave(bytes: 90)
        await large.value
        await small.value
        #expect(entrants.admitted == [80, 5])
        #expect(gate.load == (2, 85))
    }
}
