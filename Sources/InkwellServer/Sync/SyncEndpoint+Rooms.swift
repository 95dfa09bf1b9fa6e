import InkwellWire
import Logging
import Prometheus
import Synchronization

/// Room requests: looking a room up, registering and rotating its capabilities, and following it.
extension SyncEndpoint {
    /// Looks up what `room` keeps and lets the session decide what `capability` may do there.
    func authorize(
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
    func lookUp(_ room: String, for connection: Connection) async -> RoomAccess?? {
        do {
            return .some(try await log.access(room: room) ?? (openRooms ? .open : nil))
        } catch {
            connection.logger.warning("could not read a room's access: \(error)")
            refuseUnreadable(connection)
            return nil
        }
    }

    func register(
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

    func rotate(
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
    func follow(_ connection: Connection, room: String, after: UInt64) async {
        let head: UInt64
        do {
            head = try await log.head(room: room)
        } catch {
            connection.logger.warning("could not read the head of a room: \(error)")
            refuseUnreadable(connection)
            return
        }
        hub.subscribe(connection, room: room, after: after, head: head)
        noteFollowed(room)
        // A device that holds nothing of the room has no watermark to record.
        if after > 0, let device = connection.device {
            committer.note(PackLog.Watermark(room: room, device: device, position: min(after, head)))
        }
    }

    /// Ends a connection that asked for what the log could not read: a fatal `storageFailed` error and close
    /// 1011, so the client reconnects after its backoff and subscribes again from its watermark.
    func refuseUnreadable(_ connection: Connection) {
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
    func announceLeaving(_ connection: Connection, room: String) {
        guard let device = connection.device else { return }
        let leaving = Presence(room: room, device: device, name: "", colour: 0)
        hub.relay(leaving, from: connection)
        committer.cluster?.share(leaving)
    }
}
