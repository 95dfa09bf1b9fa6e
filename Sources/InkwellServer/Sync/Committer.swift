import InkwellSync
import InkwellWire
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle
import Synchronization

/// Group commit: pushes from every connection wait here, and each transaction stores all that arrived
/// while the previous one was being made durable, so under load many pushes share one fsync.
///
/// When idle, a push is committed at once (after ``linger``, zero by default: see BENCHMARKS.md); acks
/// and fan-out follow each commit in commit order. Each ack is what the pusher's session answers the
/// commit with (``ServerSession/stored(room:pack:serverSeq:)``), as every frame a connection is sent
/// in answer to it. On graceful shutdown it commits what is pending before it returns, so a server
/// stopped with SIGTERM loses nothing it accepted. A commit that fails acknowledges nothing: each of its
/// pushes is answered `storageFailed`, and the client keeps it; after a storage fault the log refuses
/// every later commit the same way (``PackLog/fault``).
///
/// Device watermarks are not worth an fsync of their own: they ride with the next commit of pushes, or
/// go in a transaction of their own after ``watermarkDelay``, the newest per device and room.
final class Committer: Service, Sendable {
    struct Pending: Sendable {
        let push: PackLog.Push
        let connection: Connection
        /// When the push arrived, for ``ServerMetrics/pushToAckSeconds``.
        let received: ContinuousClock.Instant
    }

    private struct WatermarkKey: Hashable, Sendable {
        let room: String
        let device: ReplicaID
    }

    private struct State: Sendable {
        var pending: [Pending] = []
        var watermarks: [WatermarkKey: UInt64] = [:]
        /// Whether the watermarks waiting are due, with or without pushes.
        var watermarksDue = false
        var waiter: CheckedContinuation<Void, Never>?
        var stopping = false

        var hasWork: Bool { !pending.isEmpty || (watermarksDue && !watermarks.isEmpty) || stopping }
    }

    let log: any PackStore
    let hub: RoomHub
    /// Told of each commit's new heads, for the other nodes on the same database; nil on a lone server.
    let cluster: ClusterFeed?
    /// In a cluster, the last commit's fan-out: each runs after the one before, so followers hear of
    /// positions in commit order, while the committer goes on to the next commit rather than wait for the
    /// read each may make (``fanOutSkipped(before:)``).
    private let clusterFanOuts = Mutex<Task<Void, Never>?>(nil)
    let metrics: ServerMetrics
    let logger: Logger
    /// How long the first push of a batch waits for company.
    let linger: Duration
    /// The most pushes in one transaction.
    let maximumBatch: Int
    /// How long a watermark waits for pushes to commit with before it is written alone.
    let watermarkDelay: Duration
    /// Time for the linger, the watermarks' delay and the commit metrics.
    let timekeeper: any Timekeeper
    /// All connections' pushes submitted and not yet committed (``ServerLimits/maximumPushBytesWaiting``):
    /// a reader enters it before it submits, and the commit lets it go.
    let waiting: PushGate
    /// A bug put in on purpose by the simulation (``InjectedServerBug``); never otherwise.
    let injectedBug: InjectedServerBug?
    private let state = Mutex(State())

    init(
        log: any PackStore,
        hub: RoomHub,
        cluster: ClusterFeed? = nil,
        metrics: ServerMetrics,
        linger: Duration,
        maximumBatch: Int = 1_024,
        maximumBytesWaiting: Int = ServerLimits().maximumPushBytesWaiting,
        watermarkDelay: Duration = .seconds(1),
        timekeeper: any Timekeeper = SystemTimekeeper(),
        injectedBug: InjectedServerBug? = nil,
        logger: Logger
    ) {
        self.injectedBug = injectedBug
        self.timekeeper = timekeeper
        self.log = log
        self.hub = hub
        self.cluster = cluster
        self.metrics = metrics
        self.linger = linger
        self.maximumBatch = maximumBatch
        self.watermarkDelay = watermarkDelay
        self.waiting = PushGate(limit: .max, bytes: maximumBytesWaiting)
        self.logger = logger
    }

    /// Queues a push for the next commit.
    ///
    /// - Returns: false once the server is shutting down; the push is not stored then.
    func submit(_ pending: Pending) -> Bool {
        let waiter: CheckedContinuation<Void, Never>?? = state.withLock { state in
            guard !state.stopping else { return .none }
            state.pending.append(pending)
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        guard case .some(let sleeping) = waiter else { return false }
        sleeping?.resume()
        return true
    }

    func run() async {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withDiscardingTaskGroup { group in
                    group.addTask { await self.dueWatermarks() }
                    while let (batch, watermarks) = await nextBatch() {
                        if !batch.isEmpty || !watermarks.isEmpty { await commit(batch, watermarks: watermarks) }
                    }
                    // Every commit's answers are queued before the run ends.
                    await clusterFanOuts.withLock { $0 }?.value
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                self.stop()
            }
        } onCancel: {
            self.stop()
        }
    }

    /// Watermarks waiting past which they are written at once: a bound on their memory when many devices
    /// subscribe within one ``watermarkDelay``.
    static let maximumWatermarksWaiting = 4_096

    /// Records where a device stands in a room, with the next commit or after ``watermarkDelay``.
    func note(_ watermark: PackLog.Watermark) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            let key = WatermarkKey(room: watermark.room, device: watermark.device)
            state.watermarks[key] = max(state.watermarks[key] ?? 0, watermark.position)
            guard state.watermarks.count >= Self.maximumWatermarksWaiting else { return nil }
            state.watermarksDue = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Makes the watermarks waiting due every ``watermarkDelay``, so they are written even when no
    /// push comes to carry them.
    private func dueWatermarks() async {
        while (try? await timekeeper.sleep(for: watermarkDelay)) != nil {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.watermarks.isEmpty else { return nil }
                state.watermarksDue = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Refuses new pushes; ``run()`` returns after committing the pending ones.
    func stop() {
        let waiter = state.withLock { state in
            state.stopping = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Waits for pushes, then takes up to ``maximumBatch`` of them; nil once stopped and drained.
    private func nextBatch() async -> (pushes: [Pending], watermarks: [PackLog.Watermark])? {
        await waitForWork()
        if linger > .zero, !state.withLock(\.stopping) { try? await timekeeper.sleep(for: linger) }
        return state.withLock { state in
            if state.pending.isEmpty, state.watermarks.isEmpty { return state.stopping ? nil : ([], []) }
            let count = min(state.pending.count, maximumBatch)
            defer {
                state.pending.removeFirst(count)
                state.watermarks.removeAll()
                state.watermarksDue = false
            }
            let watermarks = state.watermarks.map { key, position in
                PackLog.Watermark(room: key.room, device: key.device, position: position)
            }
            return (Array(state.pending.prefix(count)), watermarks)
        }
    }

    private func waitForWork() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.hasWork { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func commit(_ submitted: [Pending], watermarks: [PackLog.Watermark]) async {
        let started = timekeeper.now
        defer {
            for pending in submitted {
                pending.connection.pushes.leave(bytes: pending.push.bytes.count)
                waiting.leave(bytes: pending.push.bytes.count)
            }
        }
        // A connection a room refused for being full has its later pushes to it refused without a commit
        // (``ServerSession/roomFull(room:)``); within this commit the log does the same, by `origin`.
        var batch: [Pending] = []
        for pending in submitted {
            if pending.connection.session.withLock({ $0.refusesAsFull(room: pending.push.room) }) {
                deliver(pending.connection.session.withLock { $0.roomFull(room: pending.push.room) }, to: pending)
            } else {
                batch.append(pending)
            }
        }
        guard !batch.isEmpty || !watermarks.isEmpty else { return }
        // Where each room stood before the commit, when an injected bug needs it.
        var heads: [String: UInt64] = [:]
        if injectedBug != nil {
            for room in Set(batch.map(\.push.room)) { heads[room] = (try? await log.head(room: room)) ?? 0 }
        }
        if injectedBug == .ackBeforeCommit {
            var next = heads
            for pending in batch {
                next[pending.push.room, default: 0] += 1
                deliver(Self.acknowledgement(pending, position: next[pending.push.room]!), to: pending)
            }
            try? await timekeeper.sleep(for: max(linger, .milliseconds(1)))
        }
        do {
            let pushes = batch.map { pending in
                var push = pending.push
                push.origin = pending.connection.id
                return push
            }
            let outcomes = try await log.append(pushes, watermarks: watermarks)
            metrics.commitSeconds.record(timekeeper.now - started)
            metrics.commitBatches.increment()
            metrics.commitBatchPacks.record(Double(batch.count))
            var committed: [RoomHub.Committed] = []
            committed.reserveCapacity(batch.count)
            for (pending, outcome) in zip(batch, outcomes) {
                let position: UInt64
                switch outcome {
                case .stored(let stored):
                    position = stored
                case .conflict:
                    refuseConflict(pending)
                    continue
                case .roomFull:
                    deliver(pending.connection.session.withLock { $0.roomFull(room: pending.push.room) }, to: pending)
                    continue
                case .snapshotRefused(let reason):
                    deliver(
                        pending.connection.session.withLock {
                            $0.snapshotRefused(room: pending.push.room, reason: reason)
                        },
                        to: pending
                    )
                    continue
                }
                let duplicate = position <= heads[pending.push.room, default: .max]
                let withheld =
                    injectedBug == .ackBeforeCommit || (injectedBug == .dropDuplicateAck && duplicate)
                committed.append(
                    RoomHub.Committed(
                        room: pending.push.room,
                        bytes: pending.push.bytes,
                        position: position,
                        pusher: pending.connection,
                        ack: withheld ? nil : Self.ack(pending, position: position)
                    )
                )
            }
            metrics.packsStored.increment(by: Int64(committed.count))
            let received = batch.map(\.received)
            guard let cluster else {
                hub.fanOut(committed)
                recordAcknowledged(received)
                return
            }
            if !committed.isEmpty {
                var heads: [String: UInt64] = [:]
                for item in committed { heads[item.room] = max(heads[item.room] ?? 0, item.position) }
                cluster.announce(heads)
            }
            // In commit order, behind the previous commits' fan-outs, while the next commit goes ahead.
            afterEarlierFanOuts { [committed] in
                await self.fanOutSkipped(before: committed)
                self.hub.fanOut(committed)
                self.recordAcknowledged(received)
            }
        } catch {
            // A storage fault is logged once, by the log; this is the rest (a commit cancelled at shutdown).
            if !(error is StorageFault) { logger.info("commit of \(batch.count) pushes not made: \(error)") }
            for pending in batch {
                if injectedBug == .ackFailedCommit {
                    let position = heads[pending.push.room, default: 0] + 1
                    deliver(Self.acknowledgement(pending, position: position), to: pending)
                    continue
                }
                deliver(pending.connection.session.withLock { $0.storageFailed(room: pending.push.room) }, to: pending)
            }
        }
    }

    /// Runs `body` once every earlier commit's fan-out has run (``clusterFanOuts``), without waiting for it.
    private func afterEarlierFanOuts(_ body: @escaping @Sendable () async -> Void) {
        clusterFanOuts.withLock { last in
            let previous = last
            last = Task {
                await previous?.value
                await body()
            }
        }
    }

    private func recordAcknowledged(_ received: [ContinuousClock.Instant]) {
        let acknowledged = timekeeper.now
        for instant in received { metrics.pushToAckSeconds.record(acknowledged - instant) }
    }

    /// Sends the room's followers here the positions other nodes committed just before this commit's
    /// (which this node has not read yet), read from the log once for all of them. Without it each live
    /// follower of such a room would be sent back to catching up on its own: when members of one room on
    /// several nodes push together, nearly every commit comes right after another node's. A read that
    /// fails or falls short changes nothing: the fan-out then sends those followers to catch up.
    private func fanOutSkipped(before committed: [RoomHub.Committed]) async {
        var first: [String: UInt64] = [:]
        for item in committed { first[item.room] = min(first[item.room] ?? .max, item.position) }
        var after: [String: UInt64] = [:]
        for (room, position) in first {
            if let head = hub.head(of: room), head + 1 < position { after[room] = head }
        }
        guard !after.isEmpty,
            let read = try? await log.packs(after: after, maximumBytes: ClusterFeed.maximumReadBytes)
        else { return }
        for (room, packs) in read {
            hub.fanOutRemote(room: room, packs: packs.filter { $0.serverSeq < first[room, default: 0] })
        }
    }

    /// What the pusher's session answers a stored push with.
    private static func acknowledgement(_ pending: Pending, position: UInt64) -> [ServerSession.Action] {
        pending.connection.session.withLock {
            $0.stored(room: pending.push.room, pack: pending.push.pack, serverSeq: position)
        }
    }

    /// The frame the pusher's session answers a stored push with, if it answers (a closed one does not).
    private static func ack(_ pending: Pending, position: UInt64) -> ByteBuffer? {
        let actions = pending.connection.session.withLock {
            $0.stored(room: pending.push.room, pack: pending.push.pack, serverSeq: position)
        }
        var frame: ByteBuffer?
        for action in actions {
            guard case .send(let message) = action, frame == nil else {
                assertionFailure("a session answers a stored push with one frame, not \(actions)")
                continue
            }
            frame = ByteBuffer(bytes: SyncCodec.encode(message))
        }
        return frame
    }

    /// A push whose id the log holds with other bytes: the connection is told and closed (4002); the
    /// stored pack stays.
    private func refuseConflict(_ pending: Pending) {
        logger.error(
            "a pushed pack's id is stored with other bytes; refused",
            metadata: ["room": "\(pending.push.room)", "pack": "\(pending.push.pack)"]
        )
        let actions = pending.connection.session.withLock {
            $0.refuse(.packConflict, "a pack with this id is stored with other bytes", close: .packConflict)
        }
        deliver(actions, to: pending)
    }

    /// Sends the frames and closes a session answered a push with: the only actions it gives here. In a
    /// cluster they wait behind the earlier commits' fan-outs, so that a refusal never overtakes the ack of
    /// a push the connection sent before it.
    private func deliver(_ actions: [ServerSession.Action], to pending: Pending) {
        guard cluster == nil else {
            afterEarlierFanOuts { self.send(actions, to: pending.connection) }
            return
        }
        send(actions, to: pending.connection)
    }

    private func send(_ actions: [ServerSession.Action], to connection: Connection) {
        for action in actions {
            switch action {
            case .send(let message): connection.push(.frame(.init(bytes: SyncCodec.encode(message))))
            case .close(let code, let reason): connection.push(.close(code, reason: reason))
            default: assertionFailure("a session answers a push with frames and closes only, not \(action)")
            }
        }
    }
}
