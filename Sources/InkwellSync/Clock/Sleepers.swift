import Synchronization

/// Tasks asleep until a deadline on a clock someone else moves: what a ``Timekeeper`` whose time does
/// not pass by itself (a test's, a simulation's) keeps. ``wake(through:)`` resumes every sleeper due, in
/// the order of their deadlines and, at equal deadlines, of their going to sleep; a cancelled sleeper
/// wakes at once with `CancellationError`.
package final class Sleepers<Deadline: Comparable & Sendable>: Sendable {
    private struct Sleeper {
        let deadline: Deadline
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How many sleep now.
    package var count: Int { state.withLock(\.sleepers.count) }

    /// The earliest deadline any sleeper waits for.
    package var earliest: Deadline? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    /// Sleeps until ``wake(through:)`` reaches `deadline`.
    package func sleep(until deadline: Deadline) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    // Cancelled before it got here: the handler found nothing to wake.
                    guard !Task.isCancelled else { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Wakes every sleeper whose deadline is `deadline` or earlier.
    package func wake(through deadline: Deadline) {
        let due = state.withLock { state in
            let due = state.sleepers.filter { $0.value.deadline <= deadline }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { state.sleepers[id] = nil }
            return due.map(\.value.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}
