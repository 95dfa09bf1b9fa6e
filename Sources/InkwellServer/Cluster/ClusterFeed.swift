import Foundation
package import Logging
package import PostgresNIO
import Prometheus
import ServiceLifecycle
import Synchronization

/// How nodes that share one PostgreSQL learn of each other's commits, so that a push committed on one
/// reaches the room's members on the others.
///
/// - **Telling.** After each commit the committer hands over the rooms' new heads (``announce(_:)``).
///   They are gathered for ``batchInterval`` and sent as one `NOTIFY` per node, in a transaction of its
///   own with `synchronous_commit` off, never inside a commit of packs: `NOTIFY` takes a lock held
///   until its transaction ends, which in every write transaction would serialise all nodes' commits
///   (BENCHMARKS.md, "Fan-out through PostgreSQL", measures both).
/// - **Hearing.** A connection `LISTEN`s. The heads heard are gathered while the previous ones are being
///   read: one read of the log brings the new packs of every room this node follows, and the hub sends
///   them to those rooms' live followers as it sends a local commit (``RoomHub/fanOutRemote(room:packs:)``),
///   so a pack is read once per node, not once per follower. What that read did not bring, the rooms'
///   followers catch up on from the log themselves (``RoomHub/remoteHeads(_:)``).
/// - **Never trusting it.** A notification is a hint, not the data: it may be lost with a node that died
///   between its commit and its `NOTIFY`, or while this node's listening connection was down. So each
///   time listening starts, and every ``pollInterval`` after, the node reads its followed rooms' heads
///   from the log itself. The log in PostgreSQL is the only truth.
package final class ClusterFeed: Service, Sendable {
    /// The channel every node of one database notifies and listens on.
    package static let channel = "inkwell_heads"
    /// The most bytes one notification carries; PostgreSQL refuses payloads of 8,000 bytes or more.
    static let maximumPayloadBytes = 7_000

    let client: PostgresClient
    let store: any PackStore
    /// This node, to tell its own notifications from others'.
    package let node: String
    /// How long announced heads wait for others before they are sent.
    let batchInterval: Duration
    /// How often the node reads its followed rooms' heads from the log, whatever it heard.
    let pollInterval: Duration
    let metrics: ServerMetrics?
    let logger: Logger
    private let hub = Mutex<RoomHub?>(nil)
    /// Heads announced and not yet sent.
    private let outbox = Mutex<[String: UInt64]>([:])
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// Heads heard (or read) and not yet delivered here.
    private let inbox = Mutex<[String: UInt64]>([:])
    private let heardWakes: AsyncStream<Void>
    private let heardWake: AsyncStream<Void>.Continuation

    package init(
        client: PostgresClient,
        store: any PackStore,
        node: String = UUID().uuidString,
        batchInterval: Duration = .milliseconds(2),
        pollInterval: Duration = .seconds(1),
        metrics: ServerMetrics? = nil,
        logger: Logger
    ) {
        self.client = client
        self.store = store
        self.node = node
        self.batchInterval = batchInterval
        self.pollInterval = pollInterval
        self.metrics = metrics
        var logger = logger
        logger[metadataKey: "node"] = "\(node)"
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (heardWakes, heardWake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The hub whose rooms this feed keeps up to date: set once, by the core that owns both.
    func attach(_ hub: RoomHub) {
        self.hub.withLock { $0 = hub }
    }

    /// Tells the other nodes, soon, that these rooms reached these heads here.
    func announce(_ heads: [String: UInt64]) {
        outbox.withLock { outbox in
            for (room, head) in heads { outbox[room] = max(outbox[room] ?? 0, head) }
        }
        wake.yield()
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.sendAnnouncements() }
                group.addTask { await self.deliverHeard() }
                group.addTask { await self.listen() }
                group.addTask { await self.poll() }
            }
        }
    }

    // MARK: Telling

    private func sendAnnouncements() async {
        for await _ in wakes {
            try? await Task.sleep(for: batchInterval)
            let heads = outbox.withLock { outbox in
                defer { outbox.removeAll(keepingCapacity: true) }
                return outbox
            }
            guard !heads.isEmpty else { continue }
            do {
                for payload in Self.payloads(node: node, heads: heads) {
                    try await client.withTransaction(logger: logger) { connection in
                        try await connection.query("SET LOCAL synchronous_commit TO off", logger: logger)
                        try await connection.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
                    }
                }
                metrics?.clusterNotificationsSent.increment()
            } catch {
                if Task.isCancelled { return }
                // Kept for the next try; the other nodes' polls find the commits meanwhile.
                announce(heads)
                logger.warning("could not notify the other nodes; trying again: \(String(reflecting: error))")
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// The notifications that carry `heads`, each under ``maximumPayloadBytes``.
    static func payloads(node: String, heads: [String: UInt64]) -> [String] {
        var payloads: [String] = []
        var batch: [String: UInt64] = [:]
        var size = 0
        for (room, head) in heads.sorted(by: { $0.key < $1.key }) {
            // A room's entry as JSON writes it, at most: its name escaped, quotes, colon, comma, digits.
            let entry = room.utf8.count * 6 + 24
            if !batch.isEmpty, size + entry > maximumPayloadBytes - node.utf8.count - 32 {
                payloads.append(Notice(node: node, heads: batch).encoded)
                batch.removeAll()
                size = 0
            }
            batch[room] = head
            size += entry
        }
        if !batch.isEmpty { payloads.append(Notice(node: node, heads: batch).encoded) }
        return payloads
    }

    /// One notification: which node committed, and the heads it reached.
    struct Notice: Codable, Equatable {
        let node: String
        let heads: [String: UInt64]

        var encoded: String { String(decoding: try! JSONEncoder().encode(self), as: UTF8.self) }

        /// Reads a payload; nil for one that is not a notice (anyone who may `NOTIFY` on the database could
        /// send it: it is only ever a hint to read the log).
        init?(payload: String) {
            guard let notice = try? JSONDecoder().decode(Notice.self, from: Data(payload.utf8)) else { return nil }
            self = notice
        }

        init(node: String, heads: [String: UInt64]) {
            self.node = node
            self.heads = heads
        }
    }

    // MARK: Hearing

    private func listen() async {
        var backoff = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        logger.info("listening for the other nodes' commits")
                        backoff = .milliseconds(100)
                        // What was committed before listening began is read from the log.
                        await resynchronise()
                        for try await notification in notifications {
                            guard let notice = Notice(payload: notification.payload) else {
                                logger.warning("a notification on the cluster's channel is not a notice; ignored")
                                continue
                            }
                            guard notice.node != node else { continue }
                            metrics?.clusterNotificationsReceived.increment()
                            heard(notice.heads)
                        }
                    }
                }
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { return }
                logger.warning(
                    "listening for the other nodes' commits failed; listening again: \(String(reflecting: error))"
                )
            }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(5))
        }
    }

    /// Notes heads committed elsewhere, for ``deliverHeard()``.
    private func heard(_ heads: [String: UInt64]) {
        inbox.withLock { inbox in
            for (room, head) in heads { inbox[room] = max(inbox[room] ?? 0, head) }
        }
        heardWake.yield()
    }

    /// Reads the packs behind the heads heard, for all the rooms at once, and hands them to the hub.
    private func deliverHeard() async {
        for await _ in heardWakes {
            let heads = inbox.withLock { inbox in
                defer { inbox.removeAll(keepingCapacity: true) }
                return inbox
            }
            guard !heads.isEmpty, let hub = hub.withLock({ $0 }) else { continue }
            var after: [String: UInt64] = [:]
            for (room, head) in heads {
                if let known = hub.head(of: room), head > known { after[room] = known }
            }
            guard !after.isEmpty else { continue }
            do {
                for (room, packs) in try await store.packs(after: after, maximumBytes: Self.maximumReadBytes) {
                    hub.fanOutRemote(room: room, packs: packs)
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("could not read other nodes' packs: \(String(reflecting: error))")
            }
            // What the read did not bring (past its budget, or after an error), followers catch up on.
            hub.remoteHeads(heads)
        }
    }

    /// The most bytes of other nodes' packs one read brings.
    static let maximumReadBytes = 4 << 20

    /// Reads the heads of the rooms this node follows from the log, every ``pollInterval``.
    private func poll() async {
        while (try? await Task.sleep(for: pollInterval)) != nil {
            await resynchronise()
        }
    }

    /// Raises the followed rooms' heads to what the log holds.
    private func resynchronise() async {
        guard let hub = hub.withLock({ $0 }) else { return }
        let rooms = hub.followedRooms
        guard !rooms.isEmpty else { return }
        do {
            for start in stride(from: 0, to: rooms.count, by: 1_000) {
                heard(try await store.heads(rooms: Array(rooms[start..<min(start + 1_000, rooms.count)])))
            }
        } catch {
            if Task.isCancelled { return }
            logger.warning("could not read the followed rooms' heads: \(String(reflecting: error))")
        }
    }
}
