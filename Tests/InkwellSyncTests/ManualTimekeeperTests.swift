import InkwellSync
import InkwellTesting
import Synchronization
import Testing

/// The timekeeper tests move by hand: sleepers wake when time reaches them, in deadline order, and a
/// cancelled one throws at once and is forgotten.
@Suite struct ManualTimekeeperTests {
    @Test func sleepersWakeWhenTimeReachesThemInDeadlineOrder() async throws {
        let timekeeper = ManualTimekeeper()
        let start = timekeeper.now
        let woken = Woken()
        let tasks = [300, 100, 200].map { milliseconds in
            Task {
                try await timekeeper.sleep(for: .milliseconds(milliseconds))
                woken.order.withLock { $0.append(milliseconds) }
            }
        }
        while timekeeper.sleepers < 3 { await Task.yield() }
        timekeeper.advance(by: .milliseconds(150))
        try await tasks[1].value
        #expect(woken.order.withLock { $0 } == [100])
        #expect(timekeeper.sleepers == 2)
        timekeeper.advance(by: .milliseconds(150))
        for task in tasks { try await task.value }
        #expect(Set(woken.order.withLock { $0 }) == [100, 200, 300])
        #expect(timekeeper.now - start == .milliseconds(300))
        #expect(timekeeper.sleepers == 0)
    }

    @Test func aCancelledSleeperThrowsAndIsForgotten() async throws {
        let timekeeper = ManualTimekeeper()
        let sleeper = Task { try await timekeeper.sleep(for: .seconds(60)) }
        while timekeeper.sleepers < 1 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(timekeeper.sleepers == 0)
        // Already cancelled: it throws without waiting.
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await timekeeper.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await late.value }
        try await timekeeper.sleep(for: .zero)
    }
}

/// The sleepers woken, in order.
private final class Woken: Sendable {
    let order = Mutex<[Int]>([])
}
