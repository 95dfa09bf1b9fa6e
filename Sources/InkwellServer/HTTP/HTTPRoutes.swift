public import Hummingbird
public import Logging

/// The server's plain-HTTP side: health, metrics, rooms' blobs and the static web client.
///
/// ``add(to:)`` installs the middleware (client address, security headers, request log, JSON errors, static files) before the
/// routes; Hummingbird applies a router's middleware only to routes added after it, so call it before adding
/// other routes that should be logged and counted too.
public struct HTTPRoutes: Sendable {
    public struct Configuration: Sendable {
        /// Uploads larger than this are refused with 413.
        public var maximumBlobBytes: Int
        /// A room's blobs together: an upload that would take the room past it is refused with 413.
        public var maximumBlobBytesPerRoom: Int
        /// Blob bytes one IP address may upload per second, sustained; more are refused with 429.
        public var blobBytesPerSecondPerAddress: Double
        /// Blob bytes one IP address may upload at once (at least ``maximumBlobBytes``).
        public var blobByteBurstPerAddress: Double
        /// Whether a room the server has no record of is open (`--open-rooms`), as on the sync socket.
        public var openRooms: Bool
        /// The folder of the web client, served at `/` and for room links `/r/{room}`; `nil` serves no files.
        public var webRoot: String?
        /// The level of one log line per request (server errors are always `error`).
        public var requestLogLevel: Logger.Level
        /// Also serves the page's tests and benchmark under the web root (see ``WebFiles``): for development.
        public var servesTestPages: Bool
        /// The names the server answers to, for the sync socket's origin in each page's security policy.
        package var hosts = HostPolicy()
        /// The proxies whose forwarding headers name the client, whose address the upload rate counts by.
        package var trustedProxies = TrustedProxies()
        /// The port the server listens on, once bound.
        package var listeningPort: @Sendable () -> Int = { 0 }
        /// Whether the server is advertised on the local network: `GET /lan` then lists its addresses.
        package var advertisedOnLAN = false

        public init(
            maximumBlobBytes: Int = ServerLimits().maximumBlobBytes,
            maximumBlobBytesPerRoom: Int = ServerLimits().maximumBlobBytesPerRoom,
            blobBytesPerSecondPerAddress: Double = ServerLimits().blobBytesPerSecondPerAddress,
            blobByteBurstPerAddress: Double = ServerLimits().blobByteBurstPerAddress,
            openRooms: Bool = false,
            webRoot: String? = nil,
            requestLogLevel: Logger.Level = .info,
            servesTestPages: Bool = false
        ) {
            self.maximumBlobBytes = maximumBlobBytes
            self.maximumBlobBytesPerRoom = maximumBlobBytesPerRoom
            self.blobBytesPerSecondPerAddress = blobBytesPerSecondPerAddress
            self.blobByteBurstPerAddress = blobByteBurstPerAddress
            self.openRooms = openRooms
            self.webRoot = webRoot
            self.requestLogLevel = requestLogLevel
            self.servesTestPages = servesTestPages
        }
    }

    public let blobs: BlobStore
    /// Which room holds which blob, and each room's access.
    package let log: any PackStore
    public let metrics: ServerMetrics
    public let configuration: Configuration
    let startedAt: ContinuousClock.Instant
    let isDraining: @Sendable () -> Bool
    let storageFault: @Sendable () -> StorageFault?
    let logger: Logger
    let fileIO = FileIO()
    /// Blob bytes uploaded per address.
    let uploads: UploadRates

    /// - Parameters:
    ///   - startedAt: When the server started, for the uptime `/healthz` reports.
    ///   - isDraining: Whether the server is shutting down; `/healthz` then answers 503 so load balancers move on.
    ///   - storageFault: What stopped the pack log, if anything has; `/healthz` then answers 503 with its reason.
    package init(
        blobs: BlobStore,
        log: any PackStore,
        metrics: ServerMetrics,
        configuration: Configuration = Configuration(),
        startedAt: ContinuousClock.Instant = .now,
        logger: Logger = Logger(label: "inkwell.http"),
        isDraining: @escaping @Sendable () -> Bool = { false },
        storageFault: @escaping @Sendable () -> StorageFault? = { nil }
    ) {
        self.blobs = blobs
        self.log = log
        self.metrics = metrics
        self.uploads = UploadRates(
            rate: configuration.blobBytesPerSecondPerAddress,
            burst: max(configuration.blobByteBurstPerAddress, Double(configuration.maximumBlobBytes))
        )
        self.configuration = configuration
        self.startedAt = startedAt
        self.logger = logger
        self.isDraining = isDraining
        self.storageFault = storageFault
    }

    /// Adds the middleware, then the routes, to `router`.
    public func add<Context: ClientAddressRequestContext>(to router: Router<Context>) {
        router.add(middleware: ClientAddressMiddleware<Context>(proxies: configuration.trustedProxies))
        router.add(
            middleware: SecurityHeadersMiddleware<Context>(
                hosts: configuration.hosts,
                port: configuration.listeningPort
            )
        )
        router.add(middleware: RequestLogMiddleware<Context>(metrics: metrics, level: configuration.requestLogLevel))
        router.add(middleware: JSONErrorMiddleware<Context>())
        if let webRoot = configuration.webRoot {
            let shell = WebShell(root: webRoot)
            router.add(middleware: staticFiles(webRoot, shell: shell, context: Context.self))
            router.get("/r/{room}") { request, _ in roomPage(shell, request: request) }
        }
        router.get("/healthz") { _, _ in await health() }
        router.get("/readyz") { _, _ in await readiness() }
        router.get("/lan") { _, _ in lanAddresses() }
        router.get("/metrics") { _, _ in exposition() }
        router.put("/rooms/{room}/blobs/{sha256}") { request, context in
            try await putBlob(request, context: context)
        }
        router.get("/rooms/{room}/blobs/{sha256}") { request, context in
            try await getBlob(request, context: context, includeBody: true)
        }
        router.head("/rooms/{room}/blobs/{sha256}") { request, context in
            try await getBlob(request, context: context, includeBody: false)
        }
    }
}
