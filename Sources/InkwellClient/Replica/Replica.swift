public import Foundation
public import InkwellStore
public import InkwellSync
public import InkwellWire
public import Logging

/// The one object an app holds: a local store, the documents it has open, and, given a server, the
/// session that keeps them in sync.
///
/// - Local edits (``edit(_:room:)``) are stamped, stored and queued in one transaction and applied to
///   the open document before the call returns; no network work happens on that path.
/// - Changes from elsewhere are stored as they arrive and applied to open documents one batch at a
///   time, each batch announced once on ``updates(of:room:document:)``.
/// - Snapshots are written in the background (``SnapshotWriter``) when a document's tail grows long or
///   old, so a reopened replica starts from one instead of replaying its whole log; the store then
///   keeps each change once (``Store/Configuration/compaction``), and none that its document's rules
///   call inert, so it follows what still matters rather than the whole history.
/// - Incoming changes can be paused or held for review per document, and sending can be paused per
///   document (``pause(room:document:sending:receiving:)``, ``hold(room:document:)``).
///
/// Works offline from the start: without a server it is a local store with live documents, and
/// everything edited waits in its outbox for a replica that syncs.
public actor Replica {
    public nonisolated let store: Store
    /// The session with the server; `nil` for a replica that only works locally.
    public nonisolated let sync: SyncClient?
    /// The shared folder it syncs through instead of a server, if any (``init(store:folder:documentTypes:configuration:snapshots:logger:)``).
    public nonisolated let folder: FolderSync?
    public nonisolated let documentTypes: DocumentTypes
    /// Records local changes when there is no session (a session records through its own author).
    private var localAuthor: LocalAuthor?
    private var documents: [DocumentKey: any AnyLiveDocument] = [:]
    private var tasks: [Task<Void, Never>] = []
    private let progressFeed = Broadcaster<SyncProgress>(buffering: .bufferingNewest(1), replaysLatest: true)
    private var syncProgress = SyncProgress.offline
    private let logger: Logger

    /// - Parameters:
    ///   - store: the local store: the replica's identity, its log and its outbox.
    ///   - server: the server's sync endpoint (`ws://host:port/sync`), or `nil` to work locally.
    ///   - documentTypes: the types this app reads; changes of any other are kept and passed on.
    ///   - configuration: how the session connects, reconnects and cuts packs, and the wall clock local
    ///     changes are stamped from.
    ///   - snapshots: when a document's changes outside its snapshot get a new one: by their number or age.
    ///   - logger: where the replica and its session log, each line with its connection.
    public init(
        store: Store,
        server: URL? = nil,
        documentTypes: DocumentTypes,
        configuration: SyncClient.Configuration = SyncClient.Configuration(),
        snapshots: SnapshotPolicy = SnapshotPolicy(),
        logger: Logger = Logger(label: "inkwell.replica")
    ) async throws {
        try await self.init(
            store: store,
            servers: server.map { [$0] } ?? [],
            documentTypes: documentTypes,
            configuration: configuration,
            snapshots: snapshots,
            logger: logger
        )
    }

    /// A replica that syncs through any of `servers`, the nodes of one cluster, tried in turn
    /// (``SyncClient/init(store:urls:rooms:configuration:logger:)``); none to work locally. The other
    /// parameters are as above.
    public init(
        store: Store,
        servers: [URL],
        documentTypes: DocumentTypes,
        configuration: SyncClient.Configuration = SyncClient.Configuration(),
        snapshots: SnapshotPolicy = SnapshotPolicy(),
        logger: Logger = Logger(label: "inkwell.replica")
    ) async throws {
        try await self.init(
            store: store,
            servers: servers,
            folder: nil,
            documentTypes: documentTypes,
            configuration: configuration,
            snapshots: snapshots,
            logger: logger
        )
    }

    /// A replica that syncs through a shared folder, with no server (``FolderSync``): each document
    /// opened has its room joined to the folder. The other parameters are as above.
    ///
    /// - Throws: ``FolderSyncError`` when `folder` is not a directory.
    public init(
        store: Store,
        folder: URL,
        documentTypes: DocumentTypes,
        configuration: FolderSync.Configuration = FolderSync.Configuration(),
        snapshots: SnapshotPolicy = SnapshotPolicy(),
        logger: Logger = Logger(label: "inkwell.replica")
    ) async throws {
        var configuration = configuration
        configuration.documentTypes = documentTypes
        let sync = try FolderSync(store: store, directory: folder, configuration: configuration, logger: logger)
        try await self.init(
            store: store,
            servers: [],
            folder: sync,
            documentTypes: documentTypes,
            configuration: SyncClient.Configuration(wallClock: configuration.wallClock),
            snapshots: snapshots,
            logger: logger
        )
    }

    private init(
        store: Store,
        servers: [URL],
        folder: FolderSync?,
        documentTypes: DocumentTypes,
        configuration: SyncClient.Configuration,
        snapshots: SnapshotPolicy,
        logger: Logger
    ) async throws {
        self.store = store
        self.documentTypes = documentTypes
        self.logger = logger
        self.folder = folder
        if !servers.isEmpty {
            var configuration = configuration
            configuration.documentTypes = documentTypes
            sync = try SyncClient(store: store, urls: servers, rooms: [], configuration: configuration, logger: logger)
            localAuthor = nil
        } else {
            sync = nil
            localAuthor = try LocalAuthor(store: store, wallClock: configuration.wallClock)
        }
        let writer = SnapshotWriter(store: store, policy: snapshots, types: documentTypes)
        let snapshotLogger = logger
        tasks.append(
            Task.detached(priority: .background) {
                await writer.run { key, error in
                    snapshotLogger.warning(
                        "snapshot not written; the changes stay stored",
                        metadata: ["room": "\(key.room)", "document": "\(key.document)", "reason": "\(error)"]
                    )
                }
            }
        )
        if let sync {
            let batches = sync.changeBatches()
            let progress = sync.progress()
            tasks.append(
                Task { [weak self] in
                    for await batch in batches { await self?.received(batch) }
                }
            )
            tasks.append(
                Task { [weak self] in
                    for await update in progress { await self?.syncProgressChanged(update) }
                }
            )
        }
        progressFeed.send(SyncProgress.offline)
        await folder?.setReceiver { [weak self] batch in await self?.received(batch) }
    }

    /// Opens a document: the latest snapshot plus the changes after it, then kept live. Opening an
    /// open document returns its current state. With a server or a folder, its room is joined.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read, ``WireError`` for a stored snapshot that
    ///   does not decode.
    /// - Complexity: O(changes outside the snapshot + size of the snapshot).
    @discardableResult
    public func open<Document: ReplicatedDocument>(
        _: Document.Type,
        room: String,
        document: String
    ) async throws -> Document {
        let key = DocumentKey(room: room, document: document)
        if let live = documents[key] as? LiveDocument<Document> { return live.state }
        let state = try load(Document.self, room: room, document: document)
        documents[key] = LiveDocument(room: room, name: document, state: state)
        if let sync { try await sync.join(room) }
        if let folder { try await folder.join(room) }
        return state
    }

    /// The document's state: the live one when it is open, else read from the store (its snapshot and
    /// the changes after it) and not kept.
    ///
    /// - Complexity: O(1) when open; else O(changes outside the snapshot + size of the snapshot).
    func load<Document: ReplicatedDocument>(_: Document.Type, room: String, document: String) throws -> Document {
        if let live = documents[DocumentKey(room: room, document: document)] as? LiveDocument<Document> {
            return live.state
        }
        let contents = try store.coldOpen(room: room, document: document)
        let snapshot =
            try contents.snapshot.map {
                try DocumentSnapshot(decoding: $0.bytes, maximumBytes: store.configuration.maximumValueBytes)
            }
            ?? DocumentSnapshot(
                room: room,
                document: document,
                type: Document.Edit.documentType,
                schemaVersion: Document.Edit.schemaVersion,
                cut: Cut(),
                changes: []
            )
        return try snapshot.restore(as: Document.self, adding: contents.tail.map(\.payload))
    }

    /// The open document's state now.
    public func state<Document: ReplicatedDocument>(
        of _: Document.Type,
        room: String,
        document: String
    ) -> Document? {
        (documents[DocumentKey(room: room, document: document)] as? LiveDocument<Document>)?.state
    }

    /// Each batch applied to an open document from now on, with the state it left.
    public func updates<Document: ReplicatedDocument>(
        of _: Document.Type,
        room: String,
        document: String
    ) -> AsyncStream<DocumentUpdate<Document>> {
        guard let live = documents[DocumentKey(room: room, document: document)] as? LiveDocument<Document> else {
            return AsyncStream { $0.finish() }
        }
        return live.updates.subscribe()
    }

    /// Records a local edit: stamped, stored and queued in one transaction, then applied to the open
    /// document and announced. Returns before any network work; offline it waits in the outbox.
    ///
    /// - Throws: ``StoreError`` when the store refuses it (nothing is stored), or
    ///   ``SyncClientError/invalidRoom``.
    @discardableResult
    public func edit<Edit: DocumentEdit>(_ edit: Edit, room: String) async throws -> Change<Edit> {
        let change: Change<Edit>
        if let sync {
            change = try await sync.record(edit, room: room)
        } else {
            guard SyncProtocol.isValidRoom(room) else { throw SyncClientError.invalidRoom }
            change = try localAuthor!.record(edit, room: room)
        }
        documents[DocumentKey(room: room, document: edit.document)]?.take([change.encoded], origin: .local)
        await folder?.wake()
        return change
    }

    /// Starts syncing and returns when the session ends (see ``SyncClient/run()``, ``FolderSync/run()``);
    /// at once with neither a server nor a folder.
    public nonisolated func run() async throws {
        try await sync?.run()
        await folder?.run()
    }

    /// Closes the session, stops the snapshot writer and ends every stream. Everything recorded is on
    /// disk already.
    public func stop() async {
        await sync?.stop()
        await folder?.stop()
        for task in tasks { task.cancel() }
        tasks = []
        for document in documents.values { document.finish() }
        progressFeed.finish()
    }

    // MARK: Receiving

    private func received(_ batch: [ClientChange]) {
        // A session's author witnesses what it receives; without one, later local changes must still
        // sort after what came in.
        if localAuthor != nil {
            for change in batch where change.origin == .remote {
                if let skew = localAuthor!.witness(change.change.stamp) {
                    logger.warning(
                        "received a change stamped far ahead of this device's clock",
                        metadata: ["skew": "\(skew)"]
                    )
                }
            }
        }
        var byDocument: [DocumentKey: [EncodedChange]] = [:]
        for change in batch where change.origin == .remote {
            byDocument[DocumentKey(room: change.room, document: change.change.payload.document), default: []]
                .append(change.change)
        }
        for (key, changes) in byDocument {
            guard let live = documents[key] else { continue }
            live.take(changes.filter { $0.payload.type == live.type }, origin: .remote)
        }
        publishProgress()
    }

    // MARK: Presence

    /// Where the other devices in the open documents' rooms are and what they are drawing, from now
    /// until the replica stops; nothing without a server. Ephemeral: never stored.
    public nonisolated func presence() -> AsyncStream<Presence> {
        sync?.presence() ?? AsyncStream { $0.finish() }
    }

    /// Sends this device's cursor or in-progress work to the others in a room it has open; dropped, not
    /// queued, while offline.
    ///
    /// - Returns: whether it was sent.
    @discardableResult
    public func sendPresence(_ presence: Presence) async throws -> Bool {
        guard let sync else { return false }
        return try await sync.sendPresence(presence)
    }

    // MARK: Progress

    /// The sync state, bytes to upload and to download, now and on every change, until the replica
    /// stops. `paused` while any document's sending or receiving is paused or held.
    public nonisolated func progress() -> AsyncStream<SyncProgress> {
        progressFeed.subscribe()
    }

    /// Changes made here and not yet acknowledged by a server.
    public nonisolated func changesToUpload() throws -> Int {
        try store.outboxSize().changes
    }

    /// Returns once every joined room is caught up and nothing waits to upload.
    ///
    /// - Throws: ``SyncClientError/timedOut`` after `timeout`, ``SyncClientError/stopped`` when the
    ///   replica has no server or stops first.
    public nonisolated func waitUntilSynced(timeout: Duration) async throws {
        if let folder { return try await folder.waitUntilSynced(timeout: timeout) }
        guard let sync else { throw SyncClientError.stopped }
        try await sync.waitUntilSynced(timeout: timeout)
    }

    private func syncProgressChanged(_ progress: SyncProgress) {
        syncProgress = progress
        publishProgress()
    }

    private func publishProgress() {
        var progress = syncProgress
        if documents.values.contains(where: { $0.mode != .live }),
            progress.state == .syncing || progress.state == .synced
        {
            progress.state = .paused
        }
        progressFeed.send(progress)
    }

    // MARK: Control

    /// Pauses a document's sending, receiving, or both. Pausing loses nothing: local changes stay
    /// queued on disk and received ones stay stored; resuming sends and applies them.
    public func pause(room: String, document: String, sending: Bool = true, receiving: Bool = true) async {
        if sending { await sync?.pauseSending(room: room, document: document) }
        if receiving, let live = documents[DocumentKey(room: room, document: document)], live.mode == .live {
            live.mode = .paused
        }
        publishProgress()
    }

    /// Resumes what ``pause(room:document:sending:receiving:)`` paused; changes received meanwhile are
    /// applied in one batch.
    public func resume(room: String, document: String) async {
        await sync?.resumeSending(room: room, document: document)
        if let live = documents[DocumentKey(room: room, document: document)], live.mode == .paused {
            live.mode = .live
            live.release(origin: .remote)
        }
        publishProgress()
    }

    /// Holds the document's incoming changes for review: stored as they arrive, kept from the live
    /// document until ``accept(room:document:)``. Local edits still apply at once.
    public func hold(room: String, document: String) {
        documents[DocumentKey(room: room, document: document)]?.mode = .held
        publishProgress()
    }

    /// What arrived while the document's incoming changes were held.
    public func arrivals(room: String, document: String) -> Arrivals {
        documents[DocumentKey(room: room, document: document)]?.arrivals ?? Arrivals()
    }

    /// Merges what was held into the live document, as one batch, and takes changes live again.
    public func accept(room: String, document: String) {
        guard let live = documents[DocumentKey(room: room, document: document)] else { return }
        live.mode = .live
        live.release(origin: .accepted)
        publishProgress()
    }

    /// How the document takes incoming changes now.
    public func incomingMode(room: String, document: String) -> IncomingMode {
        documents[DocumentKey(room: room, document: document)]?.mode ?? .live
    }
}
