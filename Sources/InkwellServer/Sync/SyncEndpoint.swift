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
    let log: any PackStore
    let hub: RoomHub
    let committer: Committer
    let metrics: ServerMetrics
    /// How long presence waits in an idle connection queue for more (see ``OutboundPump``).
    let presenceHold: Duration
    /// Whether a room name the server has no record of is made an open room on subscribe.
    let openRooms: Bool
    /// When a frame arrived, and the waits for a hello and for a close to go out.
    let timekeeper: any Timekeeper
    /// The server's wall clock: what sessions judge stamps by and tell clients the time from.
    let wallClock: any WallClock
    private let connectionCount = Atomic<Int>(0)
    /// Told the name of each room a connection follows (``SyncServer/onRoomFollowed(_:)``).
    private let followHook = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// Connections per remote address (``ServerLimits/maximumConnectionsPerAddress``).
    let addresses: AddressSlots
    private let nextConnection = Atomic<UInt64>(1)

    init(
        server: ReplicaID,
        limits: ServerLimits,
        log: any PackStore,
        hub: RoomHub,
        committer: Committer,
        presenceHold: Duration = .zero,
        openRooms: Bool = false,
        metrics: ServerMetrics,
        timekeeper: any Timekeeper = SystemTimekeeper(),
        wallClock: any WallClock = SystemWallClock()
    ) {
        self.wallClock = wallClock
        self.openRooms = openRooms
        self.timekeeper = timekeeper
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

    /// Serves one upgraded WebSocket until either side closes it.
    func serve(
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        channel: any Channel,
        logger: Logger
    ) async throws {
        try await serve(WebSocketPeer(inbound: inbound, outbound: outbound), channel: channel, logger: logger)
    }

    /// Serves one connection until either side closes it: reads and closes through `peer`, writes frames
    /// to `channel`.
    package func serve(_ peer: any SyncPeer, channel: any Channel, logger baseLogger: Logger) async throws {
        let id = nextConnection.wrappingAdd(1, ordering: .relaxed).oldValue
        var logger = baseLogger
        logger[metadataKey: "connection"] = "c\(id)"
        let connection = Connection(
            id: id,
            session: ServerSession(
                server: server,
                maximumFrameBytes: limits.maximumMessageBytes,
                maximumPackBodyBytes: limits.maximumPackBodyBytes,
                wallClock: wallClock,
                maximumRooms: limits.maximumRoomsPerConnection,
                maximumRoomRequests: limits.maximumRoomRequestsPerConnection,
                rates: ServerSession.Rates(
                    bytesPerSecond: limits.bytesPerSecond,
                    byteBurst: max(limits.byteBurst, Double(limits.maximumMessageBytes)),
                    packsPerSecond: limits.packsPerSecond,
                    presencePerSecond: limits.presencePerSecond
                ),
                now: timekeeper.now
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
                group.addTask { await self.write(connection, to: peer, frames: connection.pump.writer) }
                group.addTask { await self.read(connection, from: peer) }
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
    enum Role: Sendable {
        case reader
        case writer
        case hello
        case deadline
    }

    /// Drops the socket of a closed session whose peer does not read what is left to write, so the
    /// close frame cannot go out. Once it is out, ``FrameGuard`` drops a peer that does not answer it
    /// within ``ServerLimits/closeTimeout``; this is the backstop for a writer that never gets there,
    /// and it leaves the server's own writes (on a busy machine) time to reach the close.
    func deadline(for connection: Connection, channel: any Channel) async -> Role {
        guard (try? await timekeeper.sleep(for: limits.closeTimeout * 4)) != nil else { return .deadline }
        connection.logger.info("peer did not take its close in time: dropping the socket")
        channel.close(promise: nil)
        return .deadline
    }

    func read(_ connection: Connection, from peer: any SyncPeer) async -> Role {
        do {
            try await peer.receive(maximumBytes: limits.maximumMessageBytes) { message in
                metrics.framesReceived.increment()
                guard case .binary(let buffer) = message else {
                    let actions = connection.session.withLock {
                        $0.refuse(.malformedFrame, "text frames are not part of this protocol", close: .invalidPayload)
                    }
                    perform(actions, for: connection)
                    return false
                }
                metrics.bytesReceived.increment(by: Int64(buffer.readableBytes))
                let arrived = timekeeper.now
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
                if connection.session.withLock(\.isClosed) { return false }
                // A peer that does not read what it is sent is not read either (``OutboundQueue``).
                await connection.queue.waitForRoom()
                return true
            }
        } catch {
            metrics.protocolError(reason: "websocket")
            connection.logger.info("connection failed: \(error)")
            connection.failure.withLock { $0 = error }
        }
        return .reader
    }

    /// Closes a connection that has not said hello in time.
    func enforceHello(_ connection: Connection) async -> Role {
        guard (try? await timekeeper.sleep(for: limits.helloTimeout)) != nil, connection.device == nil else {
            return .hello
        }
        let actions = connection.session.withLock {
            $0.refuse(.timeout, "no hello within \(limits.helloTimeout)", close: .policyViolation)
        }
        perform(actions, for: connection)
        return .hello
    }
}

extension SyncEndpoint {
    /// Calls `hook` with the name of each room a connection follows from now on.
    func onFollow(_ hook: @escaping @Sendable (String) -> Void) {
        followHook.withLock { $0 = hook }
    }

    func noteFollowed(_ room: String) {
        followHook.withLock { $0 }?(room)
    }
}
