import Foundation
import InkwellStore
import InkwellSync
import InkwellWire
import Logging

extension SyncClient {
    /// What the connection's writing task sends.
    enum Outgoing: Sendable {
        case frame([UInt8], isPush: Bool)
        case close(UInt16, reason: String)
    }

    /// The live connection: frames for it go through `outgoing`, written by its own task.
    struct Connection: Sendable {
        let id: Int
        let outgoing: AsyncStream<Outgoing>.Continuation
        /// What the connection has learnt of each room's log, for checking snapshots.
        let snapshots: SnapshotTracker
    }

    /// How one connection ended.
    struct ConnectionEnd: Sendable {
        var closeCode: UInt16?
        var reason: String?
        var error: String?
        var welcomed = false
        var lasted: Duration = .zero
    }

    /// Connects, syncs, and reconnects after every disconnection until ``stop()`` is called or the task
    /// running it is cancelled (which stops the client too).
    ///
    /// - Throws: ``SyncClientError/unsupportedVersion(_:)`` when the server refuses this client's protocol
    ///   version: reconnecting cannot help, so `run()` ends and the streams finish.
    ///   ``SyncClientError/alreadyRunning`` or ``SyncClientError/stopped`` when called twice or after a stop.
    public func run() async throws {
        guard !isStopped else { throw SyncClientError.stopped }
        guard !isRunning else { throw SyncClientError.alreadyRunning }
        isRunning = true
        defer { isRunning = false }
        // What was kept aside for a newer schema, or for a key this device did not hold yet, may open now.
        reopenSetAside()
        while !isStopped {
            guard !Task.isCancelled else {
                stop()
                break
            }
            connectionCount += 1
            let id = connectionCount
            logger[metadataKey: "inkwell.connection"] = "\(id)"
            statistics.connectionAttempts += 1
            session.connecting()
            publishProgress()
            logger.debug("connecting", metadata: ["url": "\(url(forConnection: id).absoluteString)"])

            let end = await connect(id: id, logger: logger)
            connection?.outgoing.finish()
            connection = nil
            perform(session.disconnected(closeCode: end.closeCode, reason: end.reason))
            if let failure {
                logger.error("giving up: \(failure)")
                isStopped = true
                stopFeed.finish()
                finishFeeds()
                throw failure
            }
            guard !isStopped else { break }

            if end.welcomed && end.lasted >= configuration.stableConnection { failedAttempts = 0 }
            let delay = configuration.backoff.delay(attempt: failedAttempts, using: &random)
            failedAttempts += 1
            logger.info(
                "connection ended; reconnecting",
                metadata: [
                    "close": "\(end.closeCode.map(String.init) ?? "none")",
                    "reason": "\(end.reason ?? end.error ?? "none")",
                    "delay": "\(delay)",
                ]
            )
            await sleep(for: delay)
        }
        logger.info("stopped")
    }

    /// The node connection `id` (1, 2, 3, …) goes to: the next of ``urls`` after the previous connection's.
    nonisolated func url(forConnection id: Int) -> URL {
        urls[(id - 1) % urls.count]
    }

    /// Waits for `duration`, or less if the client is stopped meanwhile.
    private func sleep(for duration: Duration) async {
        let stopped = stopFeed.subscribe()
        let timekeeper = configuration.timekeeper
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await timekeeper.sleep(for: duration) }
            group.addTask { for await _ in stopped {} }
            await group.next()
            group.cancelAll()
        }
    }

    /// One connection, from its opening to its close. The actor is free while it runs: the connection's
    /// tasks call back in for each frame.
    private func connect(id: Int, logger: Logger) async -> ConnectionEnd {
        let url = url(forConnection: id)
        let transport = configuration.transport
        let options = SyncTransportOptions(
            closeTimeout: configuration.closeTimeout,
            pingInterval: configuration.pingInterval
        )
        let stopped = stopFeed.subscribe()
        let grace = configuration.closeTimeout * 2
        let timekeeper = configuration.timekeeper
        let opened = timekeeper.now
        let welcomedBefore = statistics.connectionsOpened
        var end = ConnectionEnd()
        do {
            let close = try await withThrowingTaskGroup(of: SyncTransportClose?.self) { group in
                group.addTask {
                    try await transport.connect(to: url, options: options, logger: logger) { connection in
                        try await self.serve(connection, id: id, logger: logger)
                    }
                }
                // A stop closes the connection cleanly; this ends it anyway if the server does not answer.
                group.addTask {
                    for await _ in stopped {}
                    try await timekeeper.sleep(for: grace)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            end.closeCode = close?.code
            end.reason = close?.reason
        } catch {
            end.error = "\(error)"
        }
        end.welcomed = statistics.connectionsOpened > welcomedBefore
        end.lasted = timekeeper.now - opened
        return end
    }

    /// Runs an open connection: one task writes what the actor queues, one reads and hands frames to the
    /// actor. Returns when the server closes the connection.
    private nonisolated func serve(_ link: any SyncConnection, id: Int, logger: Logger) async throws {
        let (outgoing, continuation) = AsyncStream.makeStream(of: Outgoing.self)
        let tracker = SnapshotTracker()
        await opened(Connection(id: id, outgoing: continuation, snapshots: tracker))
        let closeTimeout = configuration.closeTimeout
        var reader = PackIntake(store: store, clock: clock, documentTypes: configuration.documentTypes)
        reader.snapshots = tracker
        let intake = reader
        let rate = configuration.maximumPushesPerSecond
        let timekeeper = configuration.timekeeper
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                var pacer = PushPacer(rate: rate, burst: max(rate / 5, 1), now: timekeeper.now)
                for await item in outgoing {
                    switch item {
                    case .frame(let bytes, let isPush):
                        if isPush {
                            let delay = pacer.delay(now: timekeeper.now)
                            if delay > .zero { try await timekeeper.sleep(for: delay) }
                        }
                        try await link.send(bytes)
                    case .close(let code, let reason):
                        try await link.close(code: code, reason: reason)
                        // The reading task ends when the server answers the close.
                        try await timekeeper.sleep(for: closeTimeout)
                        throw SyncClientError.closeTimedOut
                    }
                }
                return false
            }
            group.addTask {
                try await link.receive { frame in
                    try await self.receive(frame, id: id, intake: intake, logger: logger)
                }
                return true
            }
            defer { group.cancelAll() }
            while let readerEnded = try await group.next(), !readerEnded {}
        }
    }

    /// Decodes a frame and, for packs, stores them, off the actor; then lets the actor apply it.
    private nonisolated func receive(_ bytes: [UInt8], id: Int, intake: PackIntake, logger: Logger) async throws {
        let message: ServerMessage
        do {
            message = try SyncCodec.decodeServer(bytes)
        } catch {
            throw SyncClientError.malformedFrame("\(error)")
        }
        switch message {
        case .packs(let room, let packs, let head):
            let result = try intake.ingest(room: room, packs: packs, logger: logger)
            await stored(result, room: room, head: head, bytes: bytes.count, id: id)
        case .rebase(let room, let parts, let position, let head):
            let result = try intake.ingestRebase(room: room, parts: parts, position: position, logger: logger)
            await rebased(result, room: room, position: position, head: head, bytes: bytes.count, id: id)
        case .ack(let room, let pack, let serverSeq):
            intake.snapshots?.acknowledged(pack, room: room, position: serverSeq)
            await received(message, bytes: bytes.count, id: id)
        default:
            await received(message, bytes: bytes.count, id: id)
        }
    }
}
