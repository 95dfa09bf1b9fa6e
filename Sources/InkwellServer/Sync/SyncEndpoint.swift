import HummingbirdWebSocket
import InkwellSync
import InkwellWire
import Logging
import NIOCore
import NIOWebSocket
import Prometheus
import ServiceLifecycle
import Synchronization

/// The WebSocket side of the server: runs one ``ServerSession`` per connection and carries out its
/// actions against the hub (fan-out, catch-up, presence) and the committer (pushes).
///
/// Each connection has a reader task that feeds frames to the session. What the connection sends is
/// queued (``OutboundQueue``) and written from its event loop (``OutboundPump``), except catch-ups,
/// which read the room's log, and closes: a writer task does those. The reader never waits on the
/// network writes of any connection, and a fan-out never waits on a reader.
final class SyncEndpoint: Sendable {
    let server: ReplicaID
    let limits: ServerLimits
    let log: PackLog
    let hub: RoomHub
    let committer: Committer
    let metrics: ServerMetrics
    /// How long presence waits in an idle connection queue for more (see ``OutboundPump``).
    let presenceHold: Duration
    /// Whether a room name the server has no record of is made an open room on subscribe.
    let openRooms: Bool
    private let connectionCount = Atomic<Int>(0)
    /// Connections per remote address (``ServerLimits/maximumConnectionsPerAddress``).
    let addresses: AddressSlots
    private let nextConnection = Atomic<UInt64>(1)

    init(
        server: ReplicaID,
        limits: ServerLimits,
        log: PackLog,
        hub: RoomHub,
        committer: Committer,
        presenceHold: Duration = .zero,
        openRooms: Bool = false,
        metrics: ServerMetrics
    ) {
        self.openRooms = openRooms
        self.addresses = AddressSlots(limit: limits.maximumConnectionsPerAddress)
        self.server = server
        self.limits = limits
        self.log = log
        self.hub = hub
        self.committer = committer
        self.presenceHold = presenceHold
        self.metrics = metrics
    }

    /// Whether another connection fits under ``ServerLimits/maximumConnections``.
    var hasRoom: Bool { connectionCount.load(ordering: .relaxed) < limits.maximumConnections }

    /// Serves one upgraded connection until either side closes it.
    func serve(
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        channel: any Channel,
        logger baseLogger: Logger
    ) async throws {
        let id = nextConnection.wrappingAdd(1, ordering: .relaxed).oldValue
        var logger = baseLogger
        logger[metadataKey: "connection"] = "c\(id)"
        let connection = Connection(
            id: id,
            session: ServerSession(
                server: server,
                maximumFrameBytes: limits.maximumMessageBytes,
                maximumPackBodyBytes: limits.maximumPackBodyBytes,
                maximumRooms: limits.maximumRoomsPerConnection,
                maximumRoomRequests: limits.maximumRoomRequestsPerConnection,
                rates: ServerSession.Rates(
                    bytesPerSecond: limits.bytesPerSecond,
                    byteBurst: max(limits.byteBurst, Double(limits.maximumMessageBytes)),
                    packsPerSecond: limits.packsPerSecond,
                    presencePerSecond: limits.presencePerSecond
                )
            ),
            limits: limits,
            channel: channel,
            presenceHold: presenceHold,
            metrics: metrics,
            logger: logger
        )
        connectionCount.add(1, ordering: .relaxed)
        metrics.connections.increment()
        metrics.connectionsTotal.increment()
        logger.debug("connected")
        defer {
            for room in hub.remove(connection) { announceLeaving(connection, room: room) }
            connection.finishSending()
            connectionCount.subtract(1, ordering: .relaxed)
            metrics.connections.decrement()
            logger.debug("disconnected")
        }
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Role.self) { group in
                group.addTask { await self.write(connection, to: outbound, frames: connection.pump.writer) }
                group.addTask { await self.read(connection, from: inbound) }
                group.addTask { await self.enforceHello(connection) }
                while let ended = await group.next() {
                    switch ended {
                    case .writer: break
                    case .hello: continue
                    case .reader:
                        // After a violation the writer still sends the error frame and the close.
                        guard connection.session.withLock(\.isClosed) else { break }
                        group.addTask { await self.deadline(for: connection, channel: channel) }
                        continue
                    case .deadline: break
                    }
                    break
                }
                connection.finishSending()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            let actions = connection.session.withLock { $0.shutDown() }
            self.perform(actions, for: connection)
        }
        // A violation the WebSocket layer found (bad fragmentation, a message over the limit): rethrown,
        // it closes the connection with that layer's code (1002, 1009) instead of a normal closure.
        if let error = connection.failure.withLock({ $0 }) { throw error }
    }

    /// The tasks of a connection, as they report that they ended.
    private enum Role: Sendable {
        case reader
        case writer
        case hello
        case deadline
    }

    /// Drops the socket of a closed session whose peer does not read what is left to write, so the
    /// close frame cannot go out. Once it is out, ``FrameGuard`` drops a peer that does not answer it
    /// within ``ServerLimits/closeTimeout``; this is the backstop for a writer that never gets there,
    /// and it leaves the server's own writes (on a busy machine) time to reach the close.
    private func deadline(for connection: Connection, channel: any Channel) async -> Role {
        guard (try? await Task.sleep(for: limits.closeTimeout * 4)) != nil else { return .deadline }
        connection.logger.info("peer did not take its close in time: dropping the socket")
        channel.close(promise: nil)
        return .deadline
    }

    private func read(_ connection: Connection, from inbound: WebSocketInboundStream) async -> Role {
        do {
            for try await message in inbound.messages(maxSize: limits.maximumMessageBytes) {
                metrics.framesReceived.increment()
                guard case .binary(let buffer) = message else {
                    let actions = connection.session.withLock {
                        $0.refuse(.malformedFrame, "text frames are not part of this protocol", close: .invalidPayload)
                    }
                    perform(actions, for: connection)
                    break
                }
                metrics.bytesReceived.increment(by: Int64(buffer.readableBytes))
                let arrived = ContinuousClock.now
                let (actions, dropped) = connection.session.withLock { session in
                    let before = session.presenceDropped
                    let actions = session.received(Array(buffer.readableBytesView), at: arrived)
                    return (actions, session.presenceDropped - before)
                }
                if dropped > 0 { metrics.presenceDropped.increment(by: Int64(dropped)) }
                if actions.contains(where: {
                    if case .send(.error(ErrorCode.rateLimited.rawValue, _, true, _)) = $0 { true } else { false }
                }) {
                    metrics.protocolError(reason: "rate")
                }
                await performWaiting(actions, for: connection, arrived: arrived)
                if connection.session.withLock(\.isClosed) { break }
                // A peer that does not read what it is sent is not read either (``OutboundQueue``).
                await connection.queue.waitForRoom()
            }
        } catch {
            metrics.protocolError(reason: "websocket")
            connection.logger.info("connection failed: \(error)")
            connection.failure.withLock { $0 = error }
        }
        return .reader
    }

    /// Closes a connection that has not said hello in time.
    private func enforceHello(_ connection: Connection) async -> Role {
        guard (try? await Task.sleep(for: limits.helloTimeout)) != nil, connection.device == nil else {
            return .hello
        }
        let actions = connection.session.withLock {
            $0.refuse(.timeout, "no hello within \(limits.helloTimeout)", close: .policyViolation)
        }
        perform(actions, for: connection)
        return .hello
    }

    /// Carries out the session's actions for the reader. Pushes wait until the committer has room for
    /// the connection, and a subscription waits for the room's head from the log, so the reader stops
    /// reading meanwhile; nothing here blocks a thread. Once the log has failed, a push is answered
    /// `storageFailed` at once, as the pushes of the failed commit were: the client keeps it and tries
    /// again after its backoff.
    private func performWaiting(
        _ actions: [ServerSession.Action],
        for connection: Connection,
        arrived: ContinuousClock.Instant
    ) async {
        for action in actions {
            switch action {
            case .catchUp(let room, let after):
                await follow(connection, room: room, after: after)
                continue
            case .authorize(let room, let after, let capability):
                await authorize(connection, room: room, after: after, capability: capability, arrived: arrived)
                continue
            case .register(let room, let hashes):
                await register(connection, room: room, hashes: hashes, arrived: arrived)
                continue
            case .authorizePush(let room, let pack):
                guard let access = await lookUp(room, for: connection) else { return }
                await performWaiting(
                    connection.session.withLock { $0.pushAuthorized(room: room, pack: pack, access: access) },
                    for: connection,
                    arrived: arrived
                )
                continue
            case .rotate(let room, let adminHash, let editHash, let viewHash):
                await rotate(
                    connection,
                    room: room,
                    adminHash: adminHash,
                    editHash: editHash,
                    viewHash: viewHash,
                    arrived: arrived
                )
                continue
            default:
                break
            }
            guard case .append(let room, let pack, let bytes) = action else {
                perform([action], for: connection)
                continue
            }
            if log.fault != nil {
                perform(connection.session.withLock { $0.storageFailed(room: room) }, for: connection)
                continue
            }
            // This connection's pushes, then everyone's, wait within their bounds: the reader waits here.
            await connection.pushes.enter(bytes: bytes.count)
            await committer.waiting.enter(bytes: bytes.count)
            let submitted = committer.submit(
                Committer.Pending(
                    push: PackLog.Push(room: room, pack: pack, bytes: bytes),
                    connection: connection,
                    received: arrived
                )
            )
            if !submitted {
                connection.pushes.leave(bytes: bytes.count)
                committer.waiting.leave(bytes: bytes.count)
                perform(connection.session.withLock { $0.shutDown() }, for: connection)
            }
        }
    }

    /// Carries out actions that never wait.
    private func perform(_ actions: [ServerSession.Action], for connection: Connection) {
        for action in actions {
            switch action {
            case .send(let message):
                connection.push(.frame(ByteBuffer(bytes: SyncCodec.encode(message))))
            case .close(let code, let reason):
                if code != .goingAway { metrics.protocolError(reason: "close \(code.rawValue)") }
                connection.logger.info("closing", metadata: ["code": "\(code.rawValue)", "reason": "\(reason)"])
                connection.push(.close(code, reason: reason))
            case .catchUp:
                assertionFailure("subscriptions go through the awaiting perform")
            case .stopFollowing(let room):
                if hub.unsubscribe(connection, room: room) { announceLeaving(connection, room: room) }
            case .append:
                assertionFailure("pushes go through the awaiting perform")
            case .relay(let presence):
                hub.relay(presence, from: connection)
            case .authorize, .register, .rotate, .authorizePush:
                assertionFailure("room requests go through the awaiting perform")
            case .revoke(let room, let hashes):
                for member in hub.members(of: room) where member !== connection {
                    perform(member.session.withLock { $0.revoke(room: room, hashes: hashes) }, for: member)
                }
            }
        }
    }

    /// Looks up what `room` keeps and lets the session decide what `capability` may do there.
    private func authorize(
        _ connection: Connection,
        room: String,
        after: UInt64,
        capability: String,
        arrived: ContinuousClock.Instant
    ) async {
        guard let access = await lookUp(room, for: connection) else { return }
        let actions = connection.session.withLock {
            $0.authorized(room: room, after: after, capability: capability, access: access)
        }
        if actions.contains(where: { if case .send(.error) = $0 { true } else { false } }) {
            metrics.protocolError(reason: "room refused")
        }
        await performWaiting(actions, for: connection, arrived: arrived)
    }

    /// What `room` keeps, as the session judges it: on a server with open rooms, a name with no record
    /// is open (and stays open once it holds packs). The outer nil means the log could not be read, and
    /// the connection is being closed.
    private func lookUp(_ room: String, for connection: Connection) async -> RoomAccess?? {
        do {
            return .some(try await log.access(room: room) ?? (openRooms ? .open : nil))
        } catch {
            connection.logger.warning("could not read a room's access: \(error)")
            refuseUnreadable(connection)
            return nil
        }
    }

    private func register(
        _ connection: Connection,
        room: String,
        hashes: RoomAccess.Hashes,
        arrived: ContinuousClock.Instant
    ) async {
        let outcome: RoomAccess.Registration
        do {
            outcome = try await log.register(room: room, hashes: hashes)
        } catch {
            connection.logger.warning("could not register a room: \(error)")
            refuseUnreadable(connection)
            return
        }
        if outcome == .created { connection.logger.debug("room registered") }
        await performWaiting(
            connection.session.withLock { $0.registered(room: room, outcome: outcome) },
            for: connection,
            arrived: arrived
        )
    }

    private func rotate(
        _ connection: Connection,
        room: String,
        adminHash: [UInt8],
        editHash: [UInt8],
        viewHash: [UInt8],
        arrived: ContinuousClock.Instant
    ) async {
        let outcome: RoomAccess.Rotation
        do {
            outcome = try await log.rotate(room: room, adminHash: adminHash, editHash: editHash, viewHash: viewHash)
        } catch {
            connection.logger.warning("could not rotate a room's capabilities: \(error)")
            refuseUnreadable(connection)
            return
        }
        if case .rotated = outcome { connection.logger.info("room capabilities rotated") }
        await performWaiting(
            connection.session.withLock { $0.rotated(room: room, outcome: outcome) },
            for: connection,
            arrived: arrived
        )
    }

    /// Subscribes `connection` to `room`. The head is read before the hub's lock is taken (see
    /// ``RoomHub/subscribe(_:room:after:head:)``). A head that cannot be read ends the connection: taken
    /// as 0, it would send the follower the room from its start and let it go live behind the log's head.
    private func follow(_ connection: Connection, room: String, after: UInt64) async {
        let head: UInt64
        do {
            head = try await log.head(room: room)
        } catch {
            connection.logger.warning("could not read the head of a room: \(error)")
            refuseUnreadable(connection)
            return
        }
        hub.subscribe(connection, room: room, after: after, head: head)
        // A device that holds nothing of the room has no watermark to record.
        if after > 0, let device = connection.device {
            committer.note(PackLog.Watermark(room: room, device: device, position: min(after, head)))
        }
    }

    /// Ends a connection that asked for what the log could not read: a fatal `storageFailed` error and close
    /// 1011, so the client reconnects after its backoff and subscribes again from its watermark.
    private func refuseUnreadable(_ connection: Connection) {
        let actions = connection.session.withLock {
            $0.refuse(
                .storageFailed,
                "the server could not read the room's log; try again later",
                close: .internalError
            )
        }
        perform(actions, for: connection)
    }

    /// Tells the room's other members that this device left, so its cursor and ink disappear.
    private func announceLeaving(_ connection: Connection, room: String) {
        guard let device = connection.device else { return }
        hub.relay(Presence(room: room, device: device, name: "", colour: 0), from: connection)
    }

    // MARK: Writing

    /// Does what the pump handed over: batches that start at a catch-up or a close, which wait for the
    /// log or the WebSocket layer. Then it goes on draining the queue itself, as the pump would, until
    /// the queue is idle: what was queued meanwhile follows without a hop back to the event loop, and
    /// the next item queued starts the pump again.
    private func write(
        _ connection: Connection,
        to outbound: WebSocketOutboundWriter,
        frames writer: FrameWriter
    ) async -> Role {
        for await handedOver in connection.pump.handOvers {
            var batch = handedOver
            draining: while true {
                do {
                    guard try await write(batch, for: connection, to: outbound, frames: writer) else { return .writer }
                } catch {
                    connection.logger.debug("write failed: \(error)")
                    return .writer
                }
                switch connection.queue.take() {
                case .items(let items): batch = items
                case .idle: break draining
                case .finished: return .writer
                }
            }
        }
        return .writer
    }

    /// Writes one batch in order, catch-ups included; false once it has closed the connection.
    private func write(
        _ batch: [Outbound],
        for connection: Connection,
        to outbound: WebSocketOutboundWriter,
        frames writer: FrameWriter
    ) async throws -> Bool {
        var gathered = OutboundFrames()
        /// Sends the frames gathered so far, before an item that must follow them.
        func flush() async throws {
            let (frames, bytes) = gathered.take()
            try await send(frames, for: connection, to: writer)
            connection.queue.written(bytes: bytes)
        }
        var index = batch.startIndex
        while index < batch.endIndex {
            let item = batch[index]
            index += 1
            if gathered.add(item) { continue }
            switch item {
            case .frame, .presence:
                assertionFailure("frames and presence are gathered above")
            case .catchUp(let room):
                // The catch-ups queued one after another are read and written together.
                var rooms = [room]
                while index < batch.endIndex, case .catchUp(let next) = batch[index] {
                    rooms.append(next)
                    index += 1
                }
                try await flush()
                try await catchUp(connection, rooms: rooms, to: writer)
            case .close(let code, let reason):
                try await flush()
                try await outbound.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: reason)
                return false
            }
        }
        try await flush()
        return true
    }

    private func send(_ buffers: [ByteBuffer], for connection: Connection, to writer: FrameWriter) async throws {
        guard !buffers.isEmpty else { return }
        try await writer.write(buffers)
        metrics.framesSent.increment(by: Int64(buffers.count))
        metrics.bytesSent.increment(by: Int64(buffers.reduce(0) { $0 + $1.readableBytes }))
    }

    /// Sends rooms' packs from where the follower stands until each reaches its room's head; then
    /// each room follows live. The rooms are read from the log together, about
    /// ``ServerLimits/catchUpFrameBytes`` a read and a frame per room, and their frames go out in one
    /// write: a device that subscribes to a hundred rooms is caught up in a few round trips.
    ///
    /// A room goes live as soon as its frame reaches the head, before the write: live packs are queued
    /// behind this writer, which sends them only after the frames and the room's last progress.
    private func catchUp(_ connection: Connection, rooms: [String], to writer: FrameWriter) async throws {
        struct Following {
            let room: String
            let subscription: UInt64
            /// Whether the subscription's first progress is out.
            var announced = false
        }
        // A session that is closing gets its error and close, not the rooms' history.
        guard !connection.session.withLock(\.isClosed) else { return }
        var seen: Set<String> = []
        var following = rooms.compactMap { room -> Following? in
            guard seen.insert(room).inserted, let start = hub.catchUpPosition(connection, room: room) else {
                return nil
            }
            return Following(room: room, subscription: start.subscription)
        }
        metrics.catchUps.increment(by: Int64(following.count))
        while !following.isEmpty, !connection.session.withLock(\.isClosed) {
            // Rooms unsubscribed, subscribed again or gone live meanwhile are no longer this catch-up's.
            var requests: [PackLog.CatchUpRequest] = []
            following = following.filter { room in
                guard let position = hub.catchUpPosition(connection, room: room.room),
                    position.subscription == room.subscription
                else { return false }
                requests.append(.init(room: room.room, after: position.sent, withProgress: !room.announced))
                return true
            }
            guard !requests.isEmpty else { return }
            var reads: [PackLog.CatchUpRead]
            do {
                reads = try await log.catchUp(
                    requests,
                    maximumBytes: limits.catchUpFrameBytes,
                    allocator: ByteBufferAllocator()
                )
            } catch {
                // What was sent stands; nothing more is, and the client catches up again after reconnecting.
                connection.logger.warning("catch-up read failed: \(error)")
                refuseUnreadable(connection)
                return
            }
            var messages: [ByteBuffer] = []
            var waiting: [Following] = []
            for (index, room) in following.enumerated() {
                guard index < reads.count else {
                    waiting.append(room)
                    continue
                }
                if let progress = reads[index].progress {
                    let after = requests[index].after
                    messages.append(
                        Self.encoded(
                            .progress(
                                room: room.room,
                                head: progress.head,
                                bytesBehind: progress.bytesAfter,
                                packsBehind: progress.head &- min(after, progress.head)
                            )
                        )
                    )
                }
                // Moved out of the read, so its buffer has one owner and finishing it copies no pack.
                if var frame = reads[index].frame.take(), let last = frame.last {
                    let head = max(hub.head(of: room.room) ?? 0, last)
                    messages.append(frame.finish(head: head))
                    hub.advance(connection, room: room.room, subscription: room.subscription, to: last)
                }
                if let head = hub.goLive(connection, room: room.room, subscription: room.subscription) {
                    messages.append(
                        Self.encoded(.progress(room: room.room, head: head, bytesBehind: 0, packsBehind: 0))
                    )
                } else {
                    var room = room
                    room.announced = true
                    waiting.append(room)
                }
            }
            try await send(messages, for: connection, to: writer)
            following = waiting
        }
    }

    private static func encoded(_ message: ServerMessage) -> ByteBuffer {
        ByteBuffer(bytes: SyncCodec.encode(message))
    }
}
