public import Foundation
public import InkwellStore
public import InkwellSync
import InkwellWire
public import Logging

/// Syncs a store's rooms through a folder that a tool outside Inkwell copies between machines (a
/// file-sync service, `rsync`, a USB stick): the shared-folder transport.
///
/// Each replica appends its own changes, as the very packs it would push to a server, to a file of its
/// own in the folder (``OwnFolderFile``, format ``FolderLog``), and only reads the others' files, so
/// no two machines ever write one file and a sync tool never has to merge one. What it reads goes
/// through the same ``PackIntake`` as a server's packs: signatures, authorship, the room's key and the
/// stamp lead are checked the same way, and a forged pack is kept aside, never applied.
///
/// The folder is watched by polling: a file-sync tool or a network file system changes it behind the
/// kernel's back, where inotify sees nothing, and a poll is a `stat` per file.
///
/// - A change leaves the outbox once its pack is in this replica's file and flushed to the disk.
/// - A file read so far is read on from where it stopped; one replaced under its name (a sync tool's
///   rename) or cut shorter is read again from its start, and the store keeps each change once.
public actor FolderSync {
    /// How often the folder is looked at, and how packs are cut.
    public struct Configuration: Sendable {
        /// How long between looks at the folder.
        public var pollInterval: Duration
        /// Changes in one pack, at most.
        public var maximumChangesPerPack: Int
        /// Bytes of one encoded pack, at most (a single larger change still goes, alone).
        public var maximumBytesPerPack: Int
        /// The wall clock received stamps are judged by.
        public var wallClock: any WallClock
        /// Sleeping between looks.
        public var timekeeper: any Timekeeper
        /// The document types this app reads: received changes of these types are indexed by the
        /// entities they touch.
        public var documentTypes: DocumentTypes

        public init(
            pollInterval: Duration = .milliseconds(500),
            maximumChangesPerPack: Int = 512,
            maximumBytesPerPack: Int = 512 << 10,
            wallClock: any WallClock = SystemWallClock(),
            timekeeper: any Timekeeper = SystemTimekeeper(),
            documentTypes: DocumentTypes = DocumentTypes()
        ) {
            self.pollInterval = pollInterval
            self.maximumChangesPerPack = max(maximumChangesPerPack, 1)
            self.maximumBytesPerPack = maximumBytesPerPack
            self.wallClock = wallClock
            self.timekeeper = timekeeper
            self.documentTypes = documentTypes
        }
    }

    /// What one look at the folder did.
    public struct Pass: Hashable, Sendable {
        /// Packs appended to this replica's files.
        public var packsWritten = 0
        /// Changes those packs carried, now off the outbox.
        public var changesWritten = 0
        /// Packs read from the other files.
        public var packsRead = 0
        /// Changes new to the store among them.
        public var changesReceived = 0
        /// Packs refused (forged, unsigned, another room's) and kept aside.
        public var packsRefused = 0
        /// Files that stopped at bytes that cannot become whole (see ``FolderLogReader/Stop``).
        public var damagedFiles = 0
    }

    /// Where reading a file got to.
    private struct Progress {
        var device: UInt64
        var inode: UInt64
        /// The offset after its last whole record read.
        var next: Int
        /// The room its header names, once read.
        var room: String?
        /// Why it stopped last time, so a damaged file is reported once, not on every look.
        var reported: String?
    }

    public nonisolated let directory: URL
    public nonisolated let store: Store
    private let configuration: Configuration
    private let logger: Logger
    private let planner: OutboxPlanner
    private let intake: PackIntake
    /// This replica's file of each joined room.
    private var own: [String: OwnFolderFile] = [:]
    private var progress: [String: Progress] = [:]
    private let batches = Broadcaster<[ClientChange]>()
    /// Takes each batch before the look that read it ends (``setReceiver(_:)``).
    private var receiver: (@Sendable ([ClientChange]) async -> Void)?
    /// Batches read and not yet handed over.
    private var received: [[ClientChange]] = []
    private var stopped = false
    private var wakeUp: CheckedContinuation<Void, Never>?
    /// Whether a look is under way: looks take turns, or one that found nothing new could return while
    /// another is still handing over what it read (``waitUntilSynced(timeout:)`` would then be early).
    private var looking = false
    private var waitingToLook: [CheckedContinuation<Void, Never>] = []

    /// - Throws: ``FolderSyncError/io(_:path:code:)`` when `directory` is not a directory it can read.
    public init(
        store: Store,
        directory: URL,
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "inkwell.folder")
    ) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw FolderSyncError.io("open", path: directory.path, code: ENOTDIR) }
        self.store = store
        self.directory = directory
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: "folder"] = "\(directory.path)"
        self.logger = logger
        self.planner = OutboxPlanner(
            limits: OutboxPlanner.Limits(
                maximumChanges: configuration.maximumChangesPerPack,
                maximumBytes: configuration.maximumBytesPerPack
            )
        )
        self.intake = PackIntake(
            store: store,
            clock: configuration.wallClock,
            documentTypes: configuration.documentTypes
        )
    }

    /// Each batch of changes new to the store, as the folder brought them, until the sync stops.
    public nonisolated func changeBatches() -> AsyncStream<[ClientChange]> {
        batches.subscribe()
    }

    /// Hands each batch of changes new to the store to `receiver` before the look that read it returns,
    /// so that once ``waitUntilSynced(timeout:)`` returns, what it read has been applied (a ``Replica``'s
    /// open documents, say).
    public func setReceiver(_ receiver: @escaping @Sendable ([ClientChange]) async -> Void) {
        self.receiver = receiver
    }

    /// Syncs `room` through the folder from now on: opens (or makes) this replica's file for it, and takes
    /// what that file already holds off the outbox (written before a crash let the outbox know).
    ///
    /// - Throws: ``FolderSyncError`` when the file cannot be opened or is not this replica's;
    ///   ``StoreError`` when the store fails.
    public func join(_ room: String) throws {
        guard own[room] == nil else { return }
        guard SyncProtocol.isValidRoom(room) else { throw FolderSyncError.notJoined(room) }
        let replica = try store.replica(for: room)
        let (file, entries) = try OwnFolderFile.open(
            directory: directory.path,
            room: room,
            replica: replica,
            logger: logger
        )
        own[room] = file
        // Files of the room looked at before it was joined were read past, not taken: read them again.
        progress = progress.filter { $0.value.room != room }
        let packs = entries.compactMap { entry -> StoredPack? in
            guard case .pack(let bytes) = entry.record else { return nil }
            return StoredPack(serverSeq: UInt64(entry.offset), bytes: bytes)
        }
        if !packs.isEmpty {
            let result = try intake.ingest(room: room, packs: packs, logger: logger)
            if result.acknowledged > 0 {
                logger.notice(
                    "changes found in this replica's file taken off the outbox",
                    metadata: ["room": "\(room)", "changes": "\(result.acknowledged)"]
                )
            }
        }
        wake()
    }

    /// Looks at the folder once: appends what waits in the outbox for the joined rooms to this replica's
    /// files, then reads what the other files hold beyond what was read of them.
    ///
    /// - Throws: ``FolderSyncError`` when this replica's file cannot be written (the changes stay
    ///   queued), ``StoreError`` when the store fails. A file that cannot be read is logged and left for
    ///   the next look.
    @discardableResult
    public func syncNow() async throws -> Pass {
        while looking { await withCheckedContinuation { waitingToLook.append($0) } }
        looking = true
        defer {
            looking = false
            if !waitingToLook.isEmpty { waitingToLook.removeFirst().resume() }
        }
        var pass = Pass()
        try write(&pass)
        try read(&pass)
        // After the reading is noted, so a look begun meanwhile does not read the same records again.
        let batches = received
        received = []
        for batch in batches { await receiver?(batch) }
        return pass
    }

    /// Looks at the folder every ``Configuration/pollInterval`` (and at once after ``wake()``) until
    /// ``stop()``. A look that fails is logged and tried again at the next.
    public func run() async {
        while !stopped {
            do {
                try await syncNow()
            } catch {
                logger.error("folder sync failed; trying again", metadata: ["reason": "\(error)"])
            }
            await nap()
        }
    }

    /// Looks at the folder now rather than at the next poll: after a local edit, say.
    public func wake() {
        wakeUp?.resume()
        wakeUp = nil
    }

    /// Stops ``run()`` and ends the change stream.
    public func stop() {
        stopped = true
        wake()
        batches.finish()
    }

    /// Returns once nothing of the joined rooms waits in the outbox and the folder has been read to its
    /// end as it is now.
    ///
    /// - Throws: ``FolderSyncError/timedOut`` after `timeout`; ``FolderSyncError/stopped``.
    public func waitUntilSynced(timeout: Duration) async throws {
        let deadline = configuration.timekeeper.now + timeout
        while true {
            guard !stopped else { throw FolderSyncError.stopped }
            do {
                try await syncNow()
                if try queued().isEmpty { return }
            } catch let error as FolderSyncError {
                logger.warning("folder sync failed while waiting", metadata: ["reason": "\(error)"])
            }
            guard configuration.timekeeper.now < deadline else { throw FolderSyncError.timedOut }
            try await configuration.timekeeper.sleep(for: min(configuration.pollInterval, .milliseconds(100)))
        }
    }

    // MARK: Writing

    /// The outbox's changes of the joined rooms, oldest first.
    private func queued() throws -> [StoredChange] {
        try store.outbox().filter { own[$0.room] != nil }
    }

    private func write(_ pass: inout Pass) throws {
        let plan = planner.plan(try queued())
        guard !plan.packs.isEmpty else { return }
        var keys: [ReplicaID: AuthorKey] = [:]
        var byRoom: [String: (packs: [[UInt8]], changes: [ChangeID])] = [:]
        for planned in plan.packs {
            if keys[planned.author] == nil { keys[planned.author] = try store.authorKey(of: planned.author) }
            guard let key = keys[planned.author] else {
                // Changes of a timeline this store holds no key for cannot be signed: they stay queued.
                continue
            }
            let roomKey = try store.credentials(room: planned.room)?.key
            let bytes = PackCodec.encode(planned.pack, signedBy: key, sealedWith: roomKey)
            byRoom[planned.room, default: ([], [])].packs.append(bytes)
            byRoom[planned.room, default: ([], [])].changes += planned.changes.map(\.id)
        }
        for (room, written) in byRoom {
            guard let file = own[room] else { continue }
            try file.append(packs: written.packs)
            // Only once the packs are on the disk: a crash before this leaves them queued, and the next
            // start finds them in the file and takes them off (``join(_:)``).
            try store.acknowledge(written.changes)
            pass.packsWritten += written.packs.count
            pass.changesWritten += written.changes.count
        }
    }

    // MARK: Reading

    private func read(_ pass: inout Pass) throws {
        let ownNames = Set(own.values.map(\.name))
        let names = try FolderFileIO.names(in: directory.path).filter {
            !$0.hasPrefix(".") && $0.hasSuffix(".\(FolderLog.fileExtension)") && !ownNames.contains($0)
        }
        for name in names.sorted() {
            try read(name, &pass)
        }
        // Files gone (a sync tool removed a conflict copy) are forgotten.
        let present = Set(names)
        progress = progress.filter { present.contains($0.key) }
    }

    private func read(_ name: String, _ pass: inout Pass) throws {
        let path = directory.path + "/" + name
        guard let status = FolderFileIO.status(path) else { return }
        var known = progress[name] ?? Progress(device: status.device, inode: status.inode, next: 0)
        if known.device != status.device || known.inode != status.inode || status.size < known.next {
            // Replaced or cut: read again from the start; what was read before is kept once by the store.
            known = Progress(device: status.device, inode: status.inode, next: 0)
        }
        guard status.size > known.next else {
            progress[name] = known
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try FolderFileIO.read(path, from: known.next, limit: status.size - known.next)
        } catch {
            logger.warning("folder file not read", metadata: ["file": "\(name)", "reason": "\(error)"])
            return
        }
        let chunk = FolderLogReader.read(bytes[...], at: known.next)
        var packs: [StoredPack] = []
        for entry in chunk.entries {
            switch entry.record {
            case .header(let room, _):
                known.room = room
            case .pack(let bytes):
                packs.append(StoredPack(serverSeq: UInt64(entry.offset), bytes: bytes))
            case .unknown(let kind, _):
                logger.debug(
                    "folder record of an unknown kind skipped",
                    metadata: ["file": "\(name)", "kind": "\(kind)"]
                )
            }
        }
        if let room = known.room, own[room] != nil, !packs.isEmpty {
            let result = try intake.ingest(room: room, packs: packs, logger: logger)
            pass.packsRead += packs.count
            pass.changesReceived += result.inserted.count
            pass.packsRefused += result.forged
            if !result.inserted.isEmpty {
                batches.send(result.inserted)
                received.append(result.inserted)
            }
        }
        switch chunk.stop {
        case .end, .incomplete:
            known.reported = nil
        case .damaged(let reason):
            pass.damagedFiles += 1
            if known.reported != reason {
                logger.warning(
                    "folder file read up to damaged bytes",
                    metadata: ["file": "\(name)", "offset": "\(chunk.next)", "reason": "\(reason)"]
                )
            }
            known.reported = reason
        case .newerVersion(let version):
            if known.reported != "newer" {
                logger.warning(
                    "folder file of a newer format left for a newer version",
                    metadata: ["file": "\(name)", "version": "\(version)"]
                )
            }
            known.reported = "newer"
        }
        known.next = chunk.next
        progress[name] = known
    }

    // MARK: Waiting

    private func nap() async {
        let interval = configuration.pollInterval
        let timekeeper = configuration.timekeeper
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            wakeUp = continuation
            Task { [weak self] in
                try? await timekeeper.sleep(for: interval)
                await self?.wake()
            }
        }
    }
}
