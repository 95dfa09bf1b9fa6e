public import Hummingbird
public import Logging

/// The server's plain-HTTP side: health, metrics, blobs and the static web client.
///
/// ``add(to:)`` installs the middleware (security headers, request log, JSON errors, static files) before the
/// routes; Hummingbird applies a router's middleware only to routes added after it, so call it before adding
/// other routes that should be logged and counted too.
public struct HTTPRoutes: Sendable {
    public struct Configuration: Sendable {
        /// Uploads larger than this are refused with 413.
        public var maximumBlobBytes: Int
        /// The folder of the web client, served at `/` and for room links `/r/{room}`; `nil` serves no files.
        public var webRoot: String?
        /// The level of one log line per request (server errors are always `error`).
        public var requestLogLevel: Logger.Level
        /// Also serves the page's tests and benchmark under the web root (see ``WebFiles``): for development.
        public var servesTestPages: Bool
        /// The names the server answers to, for the sync socket's origin in each page's security policy.
        package var hosts = HostPolicy()
        /// The port the server listens on, once bound.
        package var listeningPort: @Sendable () -> Int = { 0 }

        public init(
            maximumBlobBytes: Int = 32 * 1024 * 1024,
            webRoot: String? = nil,
            requestLogLevel: Logger.Level = .info,
            servesTestPages: Bool = false
        ) {
            self.maximumBlobBytes = maximumBlobBytes
            self.webRoot = webRoot
            self.requestLogLevel = requestLogLevel
            self.servesTestPages = servesTestPages
        }
    }

    public let blobs: BlobStore
    public let metrics: ServerMetrics
    public let configuration: Configuration
    let startedAt: ContinuousClock.Instant
    let isDraining: @Sendable () -> Bool
    let storageFault: @Sendable () -> StorageFault?
    let logger: Logger
    let fileIO = FileIO()

    /// - Parameters:
    ///   - startedAt: When the server started, for the uptime `/healthz` reports.
    ///   - isDraining: Whether the server is shutting down; `/healthz` then answers 503 so load balancers move on.
    ///   - storageFault: What stopped the pack log, if anything has; `/healthz` then answers 503 with its reason.
    public init(
        blobs: BlobStore,
        metrics: ServerMetrics,
        configuration: Configuration = Configuration(),
        startedAt: ContinuousClock.Instant = .now,
        logger: Logger = Logger(label: "inkwell.http"),
        isDraining: @escaping @Sendable () -> Bool = { false },
        storageFault: @escaping @Sendable () -> StorageFault? = { nil }
    ) {
        self.blobs = blobs
        self.metrics = metrics
        self.configuration = configuration
        self.startedAt = startedAt
        self.logger = logger
        self.isDraining = isDraining
        self.storageFault = storageFault
    }

    /// Adds the middleware, then the routes, to `router`.
    public func add<Context: RequestContext>(to router: Router<Context>) {
        router.add(
            middleware: SecurityHeadersMiddleware<Context>(
                hosts: configuration.hosts,
                port: configuration.listeningPort
            )
        )
        router.add(middleware: RequestLogMiddleware<Context>(metrics: metrics, level: configuration.requestLogLevel))
        router.add(middleware: JSONErrorMiddleware<Context>())
        if let webRoot = configuration.webRoot {
            router.add(middleware: staticFiles(webRoot, context: Context.self))
            router.get("/r/{room}") { request, context in
                try await roomPage(webRoot, request: request, context: context)
            }
        }
        router.get("/healthz") { _, _ in health() }
        router.get("/metrics") { _, _ in exposition() }
        router.put("/blobs/{sha256}") { request, context in try await putBlob(request, context: context) }
        router.get("/blobs/{sha256}") { request, context in
            try await getBlob(request, context: context, includeBody: true)
        }
        router.head("/blobs/{sha256}") { request, context in
            try await getBlob(request, context: context, includeBody: false)
        }
    }
}
