import GRDB
import Synchronization

extension Store {
    /// A stream of one ``StoreNotification`` per committed transaction that stored new changes, from now on.
    ///
    /// Each call makes an independent subscription; it ends when the consumer stops iterating or the
    /// store is released. Notifications are buffered, never dropped, and arrive in commit order.
    public func notifications() -> AsyncStream<StoreNotification> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreNotification.self)
        let key = subscribers.withLock { $0.add(continuation) }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { $0.remove(key) }
        }
        return stream
    }

    /// Sends `notification` once the current transaction commits: on the writer's queue, so in commit order.
    func notifyAfterCommit(_ db: Database, _ notification: StoreNotification) {
        db.afterNextTransaction { [weak self] _ in
            self?.subscribers.withLock { $0.send(notification) }
        }
    }
}

/// The live subscriptions to a store's notifications.
struct Subscribers {
    private var nextKey = 0
    private var continuations: [Int: AsyncStream<StoreNotification>.Continuation] = [:]

    mutating func add(_ continuation: AsyncStream<StoreNotification>.Continuation) -> Int {
        nextKey += 1
        continuations[nextKey] = continuation
        return nextKey
    }

    mutating func remove(_ key: Int) {
        continuations[key] = nil
    }

    func send(_ notification: StoreNotification) {
        for continuation in continuations.values { continuation.yield(notification) }
    }

    /// Empties the set; the caller finishes them outside the lock, since finishing runs `onTermination`.
    mutating func takeAll() -> [AsyncStream<StoreNotification>.Continuation] {
        defer { continuations = [:] }
        return Array(continuations.values)
    }
}
