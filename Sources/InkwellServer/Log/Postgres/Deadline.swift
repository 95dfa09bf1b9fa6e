import Synchronization

/// Runs work that must answer within a time: a call to a database that has stopped answering (down, or
/// cut off by the network) would otherwise wait for as long as the pool keeps trying to connect, and a
/// push would get no answer at all.
///
/// The work runs in a task of its own. When the time is up the caller is answered ``Deadline/Expired``
/// at once and the work is cancelled, without waiting for it to notice: a query stuck on a dead
/// connection may take the network's own timeout to end. Work that finishes after its caller was told
/// it expired is dropped; for a commit that means a push answered "not stored" that was stored, which the
/// client pushes again and which keeps its first position.
enum Deadline {
    struct Expired: Error, CustomStringConvertible {
        let after: Duration

        var description: String { "the database did not answer within \(after)" }
    }

    static func run<Value: Sendable>(
        within timeout: Duration,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = Race<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation, timeout: timeout, work: work)
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// The work and the timer, and the caller they race to answer.
    private final class Race<Value: Sendable>: Sendable {
        private struct State {
            var caller: CheckedContinuation<Value, any Error>?
            var tasks: [Task<Void, Never>] = []
            var finished = false
        }

        private let state = Mutex(State())

        func start(
            _ caller: CheckedContinuation<Value, any Error>,
            timeout: Duration,
            work: @escaping @Sendable () async throws -> Value
        ) {
            // The caller first, so that a result that comes at once finds it.
            let cancelled = state.withLock { state -> Bool in
                guard !state.finished else { return true }
                state.caller = caller
                return false
            }
            if cancelled {
                caller.resume(throwing: CancellationError())
                return
            }
            let worker = Task {
                do {
                    self.finish(.success(try await work()))
                } catch {
                    self.finish(.failure(error))
                }
            }
            let timer = Task {
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self.finish(.failure(Expired(after: timeout)))
            }
            let finished = state.withLock { state -> Bool in
                state.tasks = [worker, timer]
                return state.finished
            }
            if finished {
                worker.cancel()
                timer.cancel()
            }
        }

        /// Answers the caller once, with the first result, and cancels whatever is still running.
        func finish(_ result: Result<Value, any Error>) {
            let (caller, tasks) = state.withLock {
                state -> (CheckedContinuation<Value, any Error>?, [Task<Void, Never>]) in
                guard !state.finished else { return (nil, []) }
                state.finished = true
                defer { state.caller = nil }
                return (state.caller, state.tasks)
            }
            caller?.resume(with: result)
            for task in tasks { task.cancel() }
        }
    }
}
