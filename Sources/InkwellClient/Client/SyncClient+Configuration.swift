public import InkwellSync

extension SyncClient {
    /// How the client connects, reconnects and cuts packs; the defaults suit an app.
    public struct Configuration: Sendable {
        /// Delays between reconnection attempts.
        public var backoff: Backoff
        /// Seeds the backoff's jitter, so a test can replay its delays; `nil` draws a seed from the system.
        public var randomSeed: UInt64?
        /// A connection that stays open this long resets the backoff to its minimum.
        public var stableConnection: Duration
        /// Changes in one pushed pack, at most.
        public var maximumChangesPerPack: Int
        /// Bytes of one encoded pack, at most (a single larger change still goes, alone).
        public var maximumBytesPerPack: Int
        /// Packs pushed and not yet acknowledged, at most.
        public var maximumPacksInFlight: Int
        /// Pushes per second at most, sustained (bursts of a fifth of a second go at once): below the
        /// server's limit, so a burst of edits is batched rather than refused.
        public var maximumPushesPerSecond: Double
        /// How the client names itself in `hello`.
        public var agent: String
        /// How often to ping an idle connection, so a dead one is noticed; `nil` never pings.
        public var pingInterval: Duration?
        /// How long to wait for the server to answer a close before dropping the connection.
        public var closeTimeout: Duration
        /// The wall clock local changes are stamped from.
        public var wallClock: any WallClock
        /// Monotonic time and sleeping: backoffs, timeouts, the push pacer and the snapshot delay.
        public var timekeeper: any Timekeeper
        /// The document types this app reads: received changes of these types are indexed by the
        /// entities they touch; any other is stored and passed on as it came.
        public var documentTypes: DocumentTypes
        /// The largest blob ``SyncClient/downloadBlob(_:room:)`` takes, sealed: a server's answer that runs
        /// past it is cut off. The server's own limit on uploads is 32 MiB by default.
        public var maximumBlobBytes: Int
        /// How long a blob's upload or download may go without progress before it fails.
        public var blobTimeout: Duration
        /// A room snapshot is sent once this device holds the room's whole history and at least this many
        /// of its changes lie outside the newest snapshot it knows; `nil` never sends one. The server may
        /// then drop the packs the snapshot stands for.
        public var snapshotThreshold: Int?
        /// How long, at most, a device waits (a random part of it) before sending a snapshot it may send,
        /// so that devices caught up together do not all send one.
        public var snapshotDelay: Duration
        /// How connections are opened: a WebSocket, unless a harness (the simulation) owns the network.
        package var transport: any SyncTransport = WebSocketTransport()
        /// Where the client's unstructured tasks (a room's retry, a snapshot's making) run: the global
        /// executor, unless a harness runs every task of the client on an executor of its own, as the
        /// simulation does to make a run depend on its seed alone.
        package var taskExecutor: (any TaskExecutor)?

        public init(
            backoff: Backoff = Backoff(),
            randomSeed: UInt64? = nil,
            stableConnection: Duration = .seconds(10),
            maximumChangesPerPack: Int = 512,
            maximumBytesPerPack: Int = 512 << 10,
            maximumPacksInFlight: Int = 8,
            maximumPushesPerSecond: Double = 100,
            agent: String = "inkwell-swift/1",
            pingInterval: Duration? = .seconds(30),
            closeTimeout: Duration = .seconds(2),
            wallClock: any WallClock = SystemWallClock(),
            timekeeper: any Timekeeper = SystemTimekeeper(),
            documentTypes: DocumentTypes = DocumentTypes(),
            maximumBlobBytes: Int = 32 << 20,
            blobTimeout: Duration = .seconds(60),
            snapshotThreshold: Int? = 10_000,
            snapshotDelay: Duration = .seconds(20)
        ) {
            self.snapshotThreshold = snapshotThreshold.map { max($0, 1) }
            self.snapshotDelay = snapshotDelay
            self.backoff = backoff
            self.randomSeed = randomSeed
            self.stableConnection = stableConnection
            self.maximumChangesPerPack = maximumChangesPerPack
            self.maximumBytesPerPack = maximumBytesPerPack
            self.maximumPacksInFlight = maximumPacksInFlight
            self.maximumPushesPerSecond = max(maximumPushesPerSecond, 1)
            self.agent = agent
            self.pingInterval = pingInterval
            self.closeTimeout = closeTimeout
            self.wallClock = wallClock
            self.timekeeper = timekeeper
            self.documentTypes = documentTypes
            self.maximumBlobBytes = maximumBlobBytes
            self.blobTimeout = blobTimeout
        }
    }
}
