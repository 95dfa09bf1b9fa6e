import InkwellStore
import InkwellSync
import InkwellWire
import Logging

extension SyncClient {
    /// The connection's tasks are running: say hello, unless the client stopped meanwhile.
    func opened(_ connection: Connection) {
        self.connection = connection
        guard !isStopped, failure == nil else {
            connection.outgoing.yield(.close(SyncTransportClose.normalClosure, reason: "client stopping"))
            return
        }
        logger.debug("connected")
        snapshotsPlanned = []
        snapshotsToReconsider = []
        perform(session.connected())
    }

    /// A frame other than `packs`, decoded.
    func received(_ message: ServerMessage, bytes: Int, id: Int) {
        guard connection?.id == id else { return }
        statistics.framesReceived += 1
        statistics.bytesReceived += bytes
        switch message {
        case .welcome(let version, let server, _, _):
            statistics.connectionsOpened += 1
            logger.info("welcomed", metadata: ["protocol": "\(version)", "server": "\(server.shortDescription)"])
        case .error(let code, let message, let fatal, let room):
            let metadata: Logger.Metadata = ["code": "\(code)", "fatal": "\(fatal)", "room": "\(room)"]
            if fatal {
                logger.error("server error: \(message)", metadata: metadata)
            } else {
                logger.warning("server error: \(message)", metadata: metadata)
            }
        case .ack(let room, let pack, let serverSeq):
            logger.trace("ack", metadata: ["room": "\(room)", "pack": "\(pack)", "position": "\(serverSeq)"])
        default:
            break
        }
        perform(session.received(message))
        switch message {
        case .progress: considerSnapshots()
        // A device that only draws hears of its room through acks: once its pushes are all stored.
        case .ack where session.inFlight.isEmpty: considerSnapshots()
        default: break
        }
    }

    /// A `packs` frame whose packs the connection's reading task has stored.
    func stored(_ result: PackIntake.Result, room: String, head: UInt64, bytes: Int, id: Int) {
        // Stored is stored: the app hears of the changes even if the connection has since been replaced.
        for change in result.inserted { changeFeed.send(change) }
        if !result.inserted.isEmpty { batchFeed.send(result.inserted) }
        if let stamp = result.latestStamp, let skew = author.witness(stamp) {
            logger.warning(
                "a received change is stamped ahead of this device's clock",
                metadata: ["aheadMilliseconds": "\(skew.aheadMilliseconds)"]
            )
        }
        statistics.changesStored += result.inserted.count
        statistics.itemsSetAside += result.setAside
        statistics.changesAcknowledged += result.acknowledged
        statistics.packsRefused += result.forged
        statistics.changesRejected += result.rejected
        took(result.snapshots)
        guard connection?.id == id else { return }
        statistics.framesReceived += 1
        statistics.bytesReceived += bytes
        statistics.packsReceived += result.positions.count
        statistics.packBytesReceived += Int(result.packBytes)
        logger.trace(
            "packs stored",
            metadata: [
                "room": "\(room)", "packs": "\(result.positions.count)", "new": "\(result.inserted.count)",
                "head": "\(head)",
            ]
        )
        perform(session.stored(room: room, positions: result.positions, packBytes: result.packBytes, head: head))
        considerSnapshots()
    }

    /// Carries out the session's actions, and those they lead to, then publishes the progress.
    func perform(_ actions: [ClientSession.Action]) {
        var queue = actions[...]
        while let action = queue.popFirst() {
            switch action {
            case .send(let message):
                guard let connection else { continue }
                var isPush = false
                if case .push(let room, let bytes) = message {
                    isPush = true
                    statistics.packsPushed += 1
                    // Pushed first time or again after a reconnection: either way in flight, and its ack
                    // makes its changes ones a snapshot must hold.
                    if let pack = session.inFlight.first(where: { $0.room == room && $0.bytes == bytes }) {
                        connection.snapshots.pushed(pack.id, room: room, changes: pack.changes)
                    }
                }
                connection.outgoing.yield(.frame(SyncCodec.encode(message), isPush: isPush))
            case .persistWatermark(let room, let position):
                do {
                    try store.setWatermark(room: room, to: position)
                } catch {
                    // Only costs a longer catch-up next time: the packs after the stored watermark come again.
                    logger.error("could not store the watermark: \(error)", metadata: ["room": "\(room)"])
                }
            case .acknowledge(let changes, let room, let position):
                do {
                    // Counted as they leave the outbox: a change a catch-up brought back left it already.
                    statistics.changesAcknowledged += try store.acknowledge(changes)
                    queue.append(contentsOf: session.acknowledgementStored(room: room, position: position))
                } catch {
                    // They stay queued, and the next connection pushes them again (the server stores them
                    // once): nothing else would, on a device that makes no more changes.
                    logger.error("could not take acknowledged changes off the outbox: \(error)")
                    Self.endAfterStoreFailure(&queue)
                }
                refreshOutboxBytes()
            case .readOutbox(let limit):
                do {
                    let outbox = Self.sendable(try store.outbox(limit: limit), paused: pausedSending)
                    for replica in Set(outbox.map(\.id.replica)) where authorKeys[replica] == nil {
                        authorKeys[replica] = try store.authorKey(of: replica)
                    }
                    queue.append(contentsOf: session.plan(outbox: outbox, keys: authorKeys))
                } catch {
                    // What it holds is read again on the next connection.
                    logger.error("could not read the outbox: \(error)")
                    Self.endAfterStoreFailure(&queue)
                }
            case .learnServerTime(let milliseconds):
                clock.learn(serverTime: milliseconds)
                if clock.offsetMilliseconds < 0 {
                    logger.warning(
                        "this device's clock runs ahead of the server's; stamping by the server's",
                        metadata: ["aheadMilliseconds": "\(-clock.offsetMilliseconds)"]
                    )
                }
                reviewSetAside()
            case .deliver(let presence):
                presenceFeed.send(presence)
            case .disconnect(let reason):
                logger.warning("closing the connection: \(reason)")
                connection?.outgoing.yield(.close(SyncTransportClose.normalClosure, reason: reason))
            case .fail(let error):
                failure = error
                connection?.outgoing.yield(
                    .close(SyncTransportClose.normalClosure, reason: "unsupported protocol version")
                )
            case .granted(let room, let rights, let guarded):
                logger.debug("access granted", metadata: ["rights": "\(rights)", "guarded": "\(guarded)"])
                unknownRoomRetries[room] = nil
                accessFeed.send(.granted(room: room, rights: rights, guarded: guarded))
            case .refused(let room, let code, let message):
                logger.warning("room refused: \(message)", metadata: ["code": "\(code)"])
                accessFeed.send(.refused(room: room, code: code, message: message))
                if code == ErrorCode.noSuchRoom.rawValue { askAgainLater(room) }
            case .unsendable(let changes):
                logger.warning(
                    "queued changes name a room the protocol cannot carry, or a replica with no key here; they stay queued",
                    metadata: ["changes": "\(changes.count)"]
                )
            }
        }
        publishProgress()
    }

    /// The store failed under the outbox: the connection ends at once, and the outbox reads planned
    /// after the failure go with it (they would push the changes just acknowledged again, on a connection
    /// about to close). The next connection reads the outbox afresh, after the backoff.
    package static func endAfterStoreFailure(_ queue: inout ArraySlice<ClientSession.Action>) {
        queue.removeAll { action in
            if case .readOutbox = action { true } else { false }
        }
        queue.insert(.disconnect(reason: "the local store failed"), at: queue.startIndex)
    }

    /// A room the server does not know yet may be registered later, when the device that made it
    /// connects: it is asked for again after a jittered backoff (1 s doubling to a minute), on this
    /// connection if it is still open, else with the next one's subscriptions.
    func askAgainLater(_ room: String) {
        let attempt = unknownRoomRetries[room, default: 0]
        unknownRoomRetries[room] = attempt + 1
        let seconds = min(60.0, Double(1 << min(attempt, 6)))
        let delay = Duration.milliseconds(Int64(seconds * 1_000 * Double.random(in: 0.5...1, using: &random)))
        let connectionID = connection?.id
        let timekeeper = configuration.timekeeper
        Task(executorPreference: configuration.taskExecutor) { [weak self] in
            try? await timekeeper.sleep(for: delay)
            await self?.retryUnknownRoom(room, connection: connectionID)
        }
    }

    private func retryUnknownRoom(_ room: String, connection id: Int?) {
        guard !isStopped, connection?.id == id, session.rooms[room]?.refusal?.code == ErrorCode.noSuchRoom.rawValue,
            let state = session.rooms[room]
        else { return }
        perform(session.update(room, credentials: state.credentials))
    }

    /// Takes in the changes kept aside for stamps ahead of this device's clock, now that it may have
    /// caught up (see ``PackIntake/review(logger:)``).
    func reviewSetAside() {
        takeInSetAside("review the changes kept aside") { try $0.review(logger: logger) }
    }

    /// Opens the packs kept aside that this version or the keys now held can read (see
    /// ``PackIntake/reopen(logger:)``): after an upgrade, and once a room's key arrives.
    func reopenSetAside() {
        takeInSetAside("open the packs kept aside") { try $0.reopen(logger: logger) }
    }

    /// Stores what `read` takes in from the changes and packs kept aside, and tells the app as it tells
    /// of changes received: the clock witnesses their stamps, and they go out one by one and as a batch.
    private func takeInSetAside(_ what: String, _ read: (PackIntake) throws -> [ClientChange]) {
        do {
            let changes = try read(PackIntake(store: store, clock: clock, documentTypes: configuration.documentTypes))
            for change in changes {
                _ = author.witness(change.change.stamp)
                changeFeed.send(change)
            }
            if !changes.isEmpty { batchFeed.send(changes) }
            statistics.changesStored += changes.count
        } catch {
            logger.error("could not \(what): \(error)")
        }
    }

    /// Reads how much waits in the outbox; a failed read keeps the last figure.
    func refreshOutboxBytes() {
        do {
            outboxBytes = try store.outboxSize().bytes
        } catch {
            logger.error("could not read the outbox size: \(error)")
        }
    }

    /// Sends the progress to subscribers when it changed.
    func publishProgress() {
        guard !isStopped else { return }
        var progress = session.progress(outboxBytes: outboxBytes)
        if !pausedSending.isEmpty, progress.state == .syncing || progress.state == .synced { progress.state = .paused }
        guard progress != lastProgress else { return }
        lastProgress = progress
        progressFeed.send(progress)
    }
}
