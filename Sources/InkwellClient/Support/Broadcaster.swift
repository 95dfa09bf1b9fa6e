import Synchronization

/// Hands every value to each of its subscribers, one `AsyncStream` per subscriber, until it is finished.
///
/// A `Mutex` around a small struct rather than an actor, so values can be sent from any task without
/// waiting. Finishing ends every stream, and later subscribers get a stream that has already ended.
final class Broadcaster<Element: Sendable>: Sendable {
    private struct State {
        var nextKey = 0
        var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
        var latest: Element?
        var isFinished = false
    }

    private let state = Mutex(State())
    private let buffering: AsyncStream<Element>.Continuation.BufferingPolicy
    private let replaysLatest: Bool

    /// - Parameters:
    ///   - buffering: what each subscriber's stream keeps while its consumer is busy.
    ///   - replaysLatest: whether a new subscriber first gets the last value sent (for state, not events).
    init(buffering: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded, replaysLatest: Bool = false) {
        self.buffering = buffering
        self.replaysLatest = replaysLatest
    }

    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: buffering)
        let key: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            if replaysLatest, let latest = state.latest { continuation.yield(latest) }
            state.nextKey += 1
            state.continuations[state.nextKey] = continuation
            return state.nextKey
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    func send(_ element: Element) {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.latest = element
            for (key, continuation) in state.continuations {
                // A stream that ended before its removal was registered is dropped here.
                if case .terminated = continuation.yield(element) { state.continuations[key] = nil }
            }
        }
    }

    /// Ends every stream; later values are dropped.
    func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        // Outside the lock: finishing runs `onTermination`, which takes it.
        for continuation in continuations { continuation.finish() }
    }
}
