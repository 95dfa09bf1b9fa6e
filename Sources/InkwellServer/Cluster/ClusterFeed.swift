import Foundation
import InkwellSync
import InkwellWire
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
/// - **Presence.** What members send of their cursors and ink goes to the other nodes the same way, in
///   the same notifications (``Notice``): the newest of each device per batch, relayed there to the
///   room's members. Presence alone is sent at most every ``presenceInterval``. It is ephemeral: a
///   notification lost loses only a cursor's step.
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
    /// How long presence waits for more when no heads are to be sent (see ``sendAnnouncements()``).
    let presenceInterval: Duration
    /// How often the node reads its followed rooms' heads from the log, whatever it heard.
    let pollInterval: Duration
    let metrics: ServerMetrics?
    let logger: Logger
    private let hub = Mutex<RoomHub?>(nil)
    /// Heads announced and not yet sent.
    private let outbox = Mutex<[String: UInt64]>([:])
    /// Presence shared and not yet sent, the newest of each device in each room, in the order first shared.
    private let presenceOutbox = Mutex(PresenceOutbox())
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
        presenceInterval: Duration = .milliseconds(20),
        pollInterval: Duration = .seconds(1),
        metrics: ServerMetrics? = nil,
        logger: Logger
    ) {
        self.client = client
        self.store = store
        self.node = node
        self.batchInterval = batchInterval
        self.presenceInterval = presenceInterval
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

    /// Sends a member's presence to the rooms' members on the other nodes, soon.
    func share(_ presence: Presence) {
        let encoded = SyncCodec.encodePresence(presence)
        presenceOutbox.withLock { $0.add(encoded, room: presence.room, device: presence.device) }
        wake.yield()
    }

    /// Presence waiting to be sent: one entry per device and room, the newest.
    struct PresenceOutbox {
        struct Key: Hashable {
            let room: String
            let device: ReplicaID
        }

        private(set) var order: [Key] = []
        private(set) var newest: [Key: [UInt8]] = [:]

        /// The most entries kept: past it a new device's presence is dropped, as a full queue drops it.
        static let limit = 10_000

        mutating func add(_ encoded: [UInt8], room: String, device: ReplicaID) {
            let key = Key(room: room, device: device)
            if newest[key] == nil {
                guard order.count < Self.limit else { return }
                order.append(key)
            }
            newest[key] = encoded
        }

        mutating func take() -> [[UInt8]] {
            defer {
                order.removeAll(keepingCapacity: true)
                newest.removeAll(keepingCapacity: true)
            }
            return order.compactMap { newest[$0] }
        }
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
        let clock = ContinuousClock()
        var lastSent = clock.now
        for await _ in wakes {
            try? await Task.sleep(for: batchInterval)
            // Presence alone waits for more, up to `presenceInterval` after the last notification: it comes
            // many times a second from every drawer, and each notification is a transaction and a wake-up on
            // every node. Heads announced meanwhile end the wait.
            while outbox.withLock(\.isEmpty), clock.now < lastSent + presenceInterval, !Task.isCancelled {
                try? await Task.sleep(for: batchInterval)
            }
            lastSent = clock.now
            let heads = outbox.withLock { outbox in
                defer { outbox.removeAll(keepingCapacity: true) }
                return outbox
            }
            let presences = presenceOutbox.withLock { $0.take() }
            guard !heads.isEmpty || !presences.isEmpty else { continue }
            let payloads = Self.payloads(node: node, heads: heads, presences: presences)
            do {
                try await client.withTransaction(logger: logger) { connection in
                    try await connection.query("SET LOCAL synchronous_commit TO off", logger: logger)
                    try await connection.query(
                        "SELECT pg_notify(\(Self.channel), payload) FROM unnest(\(payloads)::text[]) AS payload",
                        logger: logger
                    )
                }
                metrics?.clusterNotificationsSent.increment(by: Int64(payloads.count))
            } catch {
                if Task.isCancelled { return }
                // Heads are kept for the next try (the other nodes' polls find the commits meanwhile);
                // presence is not: a newer one will come.
                announce(heads)
                logger.warning("could not notify the other nodes; trying again: \(String(reflecting: error))")
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// The notifications that carry `heads` and `presences` (encoded `Presence` messages), each under
    /// ``maximumPayloadBytes`` once in Base64.
    static func payloads(node: String, heads: [String: UInt64], presences: [[UInt8]] = []) -> [String] {
        var payloads: [String] = []
        var notice = Notice(node: node)
        // Base64 takes 4 characters for every 3 bytes.
        let room = maximumPayloadBytes / 4 * 3 - WireWriter.fieldSize(node.utf8.count)
        var size = 0
        func flush() {
            guard !notice.heads.isEmpty || !notice.presences.isEmpty else { return }
            payloads.append(notice.encoded)
            notice = Notice(node: node)
            size = 0
        }
        for (name, head) in heads.sorted(by: { $0.key < $1.key }) {
            let entry = Notice.size(room: name, head: head)
            // Room names are at most 128 bytes, so every entry fits; one that did not would be left to the
            // other nodes' polls rather than make a payload PostgreSQL refuses.
            guard entry <= room else { continue }
            if size + entry > room { flush() }
            notice.heads[name] = head
            size += entry
        }
        for presence in presences {
            let entry = Notice.size(presence: presence)
            // A presence too large for any notification stays on its node (frames are far smaller).
            guard entry <= room else { continue }
            if size + entry > room { flush() }
            notice.presences.append(presence)
            size += entry
        }
        flush()
        return payloads
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
                            if !notice.heads.isEmpty { heard(notice.heads) }
                            if !notice.presences.isEmpty, let hub = hub.withLock({ $0 }) {
                                for presence in notice.decodedPresences { hub.relayRemote(presence) }
                            }
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
