public import Foundation
public import InkwellStore
public import InkwellSync
public import InkwellWire
public import Logging

/// Keeps a store in sync with an Inkwell server over one WebSocket, for as long as ``run()`` runs.
///
/// Local edits are recorded with ``record(_:room:)``: stored and queued at once, so they survive a crash
/// or a lost connection, then pushed in packs as soon as the connection allows. Packs from the server are
/// stored as they arrive, and each room's watermark follows the contiguity rule (see ``RoomCursor``), so
/// a restarted client asks only for what it lacks. A lost connection is opened again after a jittered,
/// exponential backoff; only a server that refuses the protocol version (close code 4001) ends ``run()``.
///
/// An actor because the connection's reading task, the app's edits and the backoff loop share its state;
/// the protocol rules themselves live in ``ClientSession``, which does no I/O.
public actor SyncClient {
    public nonisolated let store: Store
    /// The server's sync endpoint, `ws://host:port/sync`: the first of ``urls``.
    public nonisolated var url: URL { urls[0] }
    /// The sync endpoints of the nodes that serve the same boards, in the order they are tried: each
    /// connection goes to the next after the previous one ended, so a client whose node died resumes on
    /// another from its watermarks. One URL, or one behind a load balancer, works the same.
    public nonisolated let urls: [URL]
    public nonisolated let configuration: Configuration
    /// The device this client says hello as: the store's replica.
    public nonisolated let device: ReplicaID

    var session: ClientSession
    var author: LocalAuthor
    /// The wall clock corrected by the server's: what stamps are made and judged by.
    nonisolated let clock: ServerCorrectedClock
    /// The keys of this store's replicas, read once each: what signs their packs.
    var authorKeys: [ReplicaID: AuthorKey] = [:]
    var random: SplitMix64
    /// Connection attempts since the last stable connection: the backoff's exponent.
    var failedAttempts = 0
    var connection: Connection?
    var connectionCount = 0
    /// The logger of the latest connection attempt, so every line names a connection.
    var logger: Logger
    var isRunning = false
    var isStopped = false
    /// Why the client gave up, if it did.
    public internal(set) var failure: SyncClientError?
    public internal(set) var statistics = SyncStatistics()
    var outboxBytes: Int
    var lastProgress: SyncProgress

    let changeFeed = Broadcaster<ClientChange>()
    /// The same changes, one element per batch stored together (a frame of packs, one local edit).
    let batchFeed = Broadcaster<[ClientChange]>(buffering: .unbounded)
    /// Documents whose local changes stay queued: see ``pauseSending(room:document:)``.
    var pausedSending: Set<DocumentKey> = []
    let presenceFeed = Broadcaster<Presence>(buffering: .bufferingNewest(256))
    let progressFeed = Broadcaster<SyncProgress>(buffering: .bufferingNewest(1), replaysLatest: true)
    /// What the server says of each room's access: grants and refusals.
    let accessFeed = Broadcaster<RoomAccessEvent>(buffering: .bufferingNewest(256))
    /// How many times in a row each room was refused as unknown: the exponent of its retry's backoff.
    var unknownRoomRetries: [String: Int] = [:]
    /// The newest snapshot heard of, per room, the rooms whose snapshot this connection has planned, and
    /// those of them that frames asked about again while it was being made.
    var knownSnapshots: [String: KnownSnapshot] = [:]
    var snapshotsPlanned: Set<String> = []
    var snapshotsToReconsider: Set<String> = []
    /// Ends when the client is stopped: what the backoff and connection waits listen to.
    let stopFeed = Broadcaster<Never>()

    /// - Parameters:
    ///   - url: the server's sync endpoint, `ws://host:port/sync`.
    ///   - rooms: the rooms to follow from the start; more can be joined while running.
    /// - Throws: ``SyncClientError/invalidRoom`` for a room name the protocol cannot carry; ``StoreError``
    ///   when the store cannot be read.
    public init(
        store: Store,
        url: URL,
        rooms: Set<String>,
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "inkwell.client")
    ) throws {
        try self.init(store: store, urls: [url], rooms: rooms, configuration: configuration, logger: logger)
    }

    /// A client of a cluster: ``init(store:url:rooms:configuration:logger:)`` with the sync endpoints of
    /// several nodes that serve the same boards, tried in turn (``urls``).
    ///
    /// - Throws: ``SyncClientError/invalidRoom`` as above, or ``SyncClientError/noServer`` for an empty list.
    public init(
        store: Store,
        urls: [URL],
        rooms: Set<String>,
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "inkwell.client")
    ) throws {
        guard rooms.allSatisfy(SyncProtocol.isValidRoom) else { throw SyncClientError.invalidRoom }
        guard !urls.isEmpty else { throw SyncClientError.noServer }
        self.store = store
        self.urls = urls
        self.configuration = configuration
        self.device = store.replica
        var logger = logger
        logger[metadataKey: "inkwell.device"] = "\(store.replica.shortDescription)"
        logger[metadataKey: "inkwell.connection"] = "none"
        self.logger = logger
        self.clock = ServerCorrectedClock(local: configuration.wallClock)
        self.author = try LocalAuthor(store: store, wallClock: clock)
        self.random = SplitMix64(seed: configuration.randomSeed ?? UInt64.random(in: 0...UInt64.max))
        var session = ClientSession(
            configuration: ClientSession.Configuration(
                device: store.replica,
                agent: configuration.agent,
                limits: OutboxPlanner.Limits(
                    maximumChanges: configuration.maximumChangesPerPack,
                    maximumBytes: configuration.maximumBytesPerPack
                ),
                maximumPacksInFlight: configuration.maximumPacksInFlight
            )
        )
        for room in rooms.sorted() {
            _ = session.join(
                room,
                watermark: try store.watermark(room: room),
                credentials: try store.credentials(room: room)
            )
        }
        self.session = session
        self.outboxBytes = try store.outboxSize().bytes
        self.lastProgress = session.progress(outboxBytes: outboxBytes)
        progressFeed.send(lastProgress)
    }

    // MARK: Editing

    /// Records a local edit to `room`: stamped, stored and queued in one transaction, then pushed as soon
    /// as the connection allows. Works offline; the edit waits in the outbox.
    ///
    /// - Throws: ``SyncClientError/invalidRoom``; `WireError` for an edit too large for one change (peers
    ///   would refuse it); ``StoreError`` when the store refuses it. Nothing is stored then.
    @discardableResult
    public func record<Edit: DocumentEdit>(_ edit: Edit, room: String) throws -> Change<Edit> {
        guard SyncProtocol.isValidRoom(room) else { throw SyncClientError.invalidRoom }
        if let rights = session.rooms[room]?.credentials?.rights, !rights.mayEdit { throw SyncClientError.viewOnly }
        let change = try author.record(edit, room: room)
        let stored = ClientChange(room: room, change: change.encoded, origin: .local)
        changeFeed.send(stored)
        batchFeed.send([stored])
        refreshOutboxBytes()
        perform(session.outboxChanged())
        return change
    }

    // MARK: Rooms

    /// Follows `room` from its stored watermark, with the credentials the store holds for it (none: an
    /// open room): subscribes now if connected, else on the next connection. A room this device made is
    /// registered with the server first.
    public func join(_ room: String) throws {
        guard SyncProtocol.isValidRoom(room) else { throw SyncClientError.invalidRoom }
        perform(
            session.join(
                room,
                watermark: try store.watermark(room: room),
                credentials: try store.credentials(room: room)
            )
        )
    }

    /// Keeps `credentials` for `room` in the store and, when the room is joined, asks the server again with them.
    public func setCredentials(_ credentials: RoomCredentials, for room: String) throws {
        guard SyncProtocol.isValidRoom(room) else { throw SyncClientError.invalidRoom }
        try store.setCredentials(credentials, for: room)
        if session.rooms[room] != nil, let stored = try store.credentials(room: room) {
            perform(session.update(room, credentials: stored))
        }
        // Sealed packs that came before the key open now.
        if credentials.key != nil { reopenSetAside() }
    }

    /// Replaces the room's edit or view link (or both) with new ones, proven by this device's admin
    /// capability, and keeps the new ones. Connections that used a replaced link are closed by the server.
    ///
    /// - Returns: the credentials now held.
    /// - Throws: ``SyncClientError/notAdmin`` without the admin capability, ``SyncClientError/notJoined``
    ///   unless the room is joined, ``SyncClientError/refused(_:)`` when the server refuses,
    ///   ``SyncClientError/timedOut`` when not connected, or when the server does not answer within `timeout`
    ///   (the links held are unchanged then).
    public func rotate(
        room: String,
        edit: Bool,
        view: Bool,
        timeout: Duration = .seconds(10)
    ) async throws
        -> RoomCredentials
    {
        guard let state = session.rooms[room] else { throw SyncClientError.notJoined }
        guard var credentials = state.credentials, credentials.admin != nil else { throw SyncClientError.notAdmin }
        let newEdit = edit ? Capability.mint(.edit) : nil
        let newView = view ? Capability.mint(.view) : nil
        let events = accessFeed.subscribe()
        let actions = session.rotate(room, edit: newEdit, view: newView)
        guard !actions.isEmpty else { throw SyncClientError.timedOut }
        perform(actions)
        let answer = try await Self.firstEvent(in: events, for: room, timeout: timeout) { event in
            if case .granted(_, .admin, _) = event { true } else if case .refused = event { true } else { false }
        }
        if case .refused(_, _, let message) = answer { throw SyncClientError.refused(message) }
        if let newEdit { credentials.edit = newEdit }
        if let newView { credentials.view = newView }
        try store.setCredentials(credentials, for: room)
        return credentials
    }

    /// Returns once the server has granted this connection's subscription to `room`: its rights. A room
    /// the server does not know yet (its maker has not connected since making it) is asked for again
    /// after a backoff, so this keeps waiting for it.
    ///
    /// - Throws: ``SyncClientError/refused(_:)`` with the server's reason when the link does not open the
    ///   room, or ``SyncClientError/timedOut``.
    public func waitForAccess(room: String, timeout: Duration) async throws -> Rights {
        if let rights = session.rooms[room]?.rights { return rights }
        let events = accessFeed.subscribe()
        if let refusal = session.rooms[room]?.refusal, refusal.code != ErrorCode.noSuchRoom.rawValue {
            throw SyncClientError.refused(refusal.message)
        }
        let answer = try await Self.firstEvent(in: events, for: room, timeout: timeout) { event in
            if case .refused(_, ErrorCode.noSuchRoom.rawValue, _) = event { false } else { true }
        }
        switch answer {
        case .granted(_, let rights, _): return rights
        case .refused(_, _, let message): throw SyncClientError.refused(message)
        }
    }

    private static func firstEvent(
        in events: AsyncStream<RoomAccessEvent>,
        for room: String,
        timeout: Duration,
        where matches: @escaping @Sendable (RoomAccessEvent) -> Bool
    ) async throws -> RoomAccessEvent {
        try await withThrowingTaskGroup(of: RoomAccessEvent.self) { group in
            group.addTask {
                for await event in events where event.room == room && matches(event) { return event }
                throw SyncClientError.stopped
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw SyncClientError.timedOut
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// The server's reason for refusing `room` on this connection, until it is granted.
    public func refusal(room: String) -> String? { session.rooms[room]?.refusal?.message }

    /// The error code (``ErrorCode``) of the server's refusal of `room` on this connection, until it is granted.
    public func refusalCode(room: String) -> UInt32? { session.rooms[room]?.refusal?.code }

    /// What the server says of rooms' access, from now until the client stops.
    public nonisolated func accessEvents() -> AsyncStream<RoomAccessEvent> {
        accessFeed.subscribe()
    }

    /// Stops following `room`. Its queued edits wait until it is joined again: pushes need the room's access.
    public func leave(_ room: String) {
        perform(session.leave(room))
    }

    /// The rooms followed.
    public var rooms: Set<String> { Set(session.rooms.keys) }

    // MARK: Presence

    /// Sends this device's cursor or in-progress ink to the others in a joined room. Presence is
    /// ephemeral: while offline it is dropped, not queued.
    ///
    /// - Returns: whether it was sent.
    /// - Throws: ``SyncClientError/presenceForAnotherDevice`` unless `presence.device` is ``device``;
    ///   ``SyncClientError/notJoined`` for a room not followed.
    @discardableResult
    public func sendPresence(_ presence: Presence) throws -> Bool {
        guard presence.device == device else { throw SyncClientError.presenceForAnotherDevice }
        guard let room = session.rooms[presence.room] else { throw SyncClientError.notJoined }
        if let rights = room.rights ?? room.credentials?.rights, !rights.mayEdit { throw SyncClientError.viewOnly }
        let actions = session.presence(presence)
        perform(actions)
        return !actions.isEmpty
    }

    // MARK: Observing

    /// Every board change as it is stored, local and remote, from now until the client stops.
    public nonisolated func changes() -> AsyncStream<ClientChange> {
        changeFeed.subscribe()
    }

    /// Every change as it is stored, local and remote, one element per batch stored together: what a
    /// live document applies in one go.
    public nonisolated func changeBatches() -> AsyncStream<[ClientChange]> {
        batchFeed.subscribe()
    }

    /// Presence of other devices in the joined rooms, from now until the client stops. A presence with an
    /// empty name, no cursor and no ink means that device left the room.
    public nonisolated func presence() -> AsyncStream<Presence> {
        presenceFeed.subscribe()
    }

    /// The current progress, then each change of it, until the client stops.
    public nonisolated func progress() -> AsyncStream<SyncProgress> {
        progressFeed.subscribe()
    }

    /// The progress now.
    public var currentProgress: SyncProgress { lastProgress }

    /// Returns once the client is ``SyncProgress/State/synced``.
    ///
    /// - Throws: ``SyncClientError/timedOut`` after `timeout`; ``SyncClientError/stopped`` if the client
    ///   stops first.
    public nonisolated func waitUntilSynced(timeout: Duration) async throws {
        let updates = progress()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await progress in updates where progress.state == .synced { return }
                try Task.checkCancellation()
                throw SyncClientError.stopped
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw SyncClientError.timedOut
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    // MARK: Stopping

    /// Closes the connection cleanly, ends ``run()`` and finishes every stream. A stopped client stays stopped.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        logger.info("stopping")
        connection?.outgoing.yield(.close(SyncTransportClose.normalClosure, reason: "client stopping"))
        stopFeed.finish()
        finishFeeds()
    }

    func finishFeeds() {
        lastProgress = SyncProgress(state: .offline, bytesToUpload: outboxBytes, bytesToDownload: 0)
        progressFeed.send(lastProgress)
        progressFeed.finish()
        changeFeed.finish()
        batchFeed.finish()
        accessFeed.finish()
        presenceFeed.finish()
    }
}
