import InkwellSync
import InkwellWire
import Logging
import NIOCore
import Prometheus
import Synchronization

/// Carrying out a session's actions: those that wait (pushes, room requests) and those that do not.
extension SyncEndpoint {
    /// Carries out the session's actions for the reader. Pushes wait until the committer has room for
    /// the connection, and a subscription waits for the room's head from the log, so the reader stops
    /// reading meanwhile; nothing here blocks a thread. Once the log has failed, a push is answered
    /// `storageFailed` at once, as the pushes of the failed commit were: the client keeps it and tries
    /// again after its backoff.
    func performWaiting(
        _ actions: [ServerSession.Action],
        for connection: Connection,
        arrived: ContinuousClock.Instant
    ) async {
        for action in actions {
            switch action {
            // Room requests are rare and read the log: each runs in a child task (``inChildTask(_:)``).
            case .catchUp(let room, let after):
                await inChildTask { await self.follow(connection, room: room, after: after) }
                continue
            case .authorize(let room, let after, let capability):
                await inChildTask {
                    await self.authorize(connection, room: room, after: after, capability: capability, arrived: arrived)
                }
                continue
            case .register(let room, let hashes):
                await inChildTask { await self.register(connection, room: room, hashes: hashes, arrived: arrived) }
                continue
            case .authorizePush(let room, let pack):
                guard let access = await inChildTask({ await self.lookUp(room, for: connection) }) else { return }
                await performWaiting(
                    connection.session.withLock { $0.pushAuthorized(room: room, pack: pack, access: access) },
                    for: connection,
                    arrived: arrived
                )
                continue
            case .rotate(let room, let adminHash, let editHash, let viewHash):
                await inChildTask {
                    await self.rotate(
                        connection,
                        room: room,
                        adminHash: adminHash,
                        editHash: editHash,
                        viewHash: viewHash,
                        arrived: arrived
                    )
                }
                continue
            case .recordCheck(let room, let snapshot, let signer):
                await inChildTask { await self.recordCheck(connection, room: room, snapshot: snapshot, signer: signer) }
                continue
            default:
                break
            }
            guard case .append(let room, let pack, let bytes, let author, let snapshot) = action else {
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
                    push: PackLog.Push(room: room, pack: pack, bytes: bytes, author: author, snapshot: snapshot),
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
    func perform(_ actions: [ServerSession.Action], for connection: Connection) {
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
                committer.cluster?.share(presence)
            case .authorize, .register, .rotate, .authorizePush, .recordCheck:
                assertionFailure("room requests go through the awaiting perform")
            case .revoke(let room, let hashes):
                for member in hub.members(of: room) where member !== connection {
                    perform(member.session.withLock { $0.revoke(room: room, hashes: hashes) }, for: member)
                }
            }
        }
    }

    /// Records a device's signed check of a snapshot. Not answered: a check the log cannot use (of a
    /// snapshot it does not hold whole, by a replica that never wrote to the room) changes nothing.
    private func recordCheck(_ connection: Connection, room: String, snapshot: SnapshotID, signer: ReplicaID) async {
        do {
            let recorded = try await log.recordCheck(
                room: room,
                snapshot: snapshot,
                signer: signer,
                device: connection.device
            )
            connection.logger.debug(
                "snapshot check",
                metadata: ["room": "\(room)", "snapshot": "\(snapshot)", "recorded": "\(recorded)"]
            )
        } catch {
            connection.logger.warning("snapshot check not recorded: \(error)")
        }
    }
}
