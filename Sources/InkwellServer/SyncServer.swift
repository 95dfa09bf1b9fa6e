import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import InkwellSync
public import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import Prometheus
public import ServiceLifecycle
import Synchronization

/// The Inkwell server: the sync socket at `/sync`, rooms' blobs, health, metrics and the web client, over one
/// HTTP port (HTTPS with ``ServerConfiguration/tls``), with every room's packs in one SQLite pack log.
///
/// Run it as a `Service` (in a `ServiceGroup` that turns SIGTERM into a graceful shutdown): it stops
/// accepting connections, closes the open ones, commits what they pushed, and returns.
public final class SyncServer: Service, Sendable {
    public let configuration: ServerConfiguration
    /// This server's replica id, kept in its pack log.
    public let id: ReplicaID
    let logger: Logger
    let log: any PackStore
    /// The link to the other nodes on the same database, when there are any.
    let cluster: ClusterFeed?
    let blobs: BlobStore
    let metrics: ServerMetrics
    let hub: RoomHub
    let committer: Committer
    let endpoint: SyncEndpoint
    let timekeeper: any Timekeeper
    let hosts: HostPolicy
    let origins: OriginPolicy
    let proxies: TrustedProxies
    let tls: NIOSSLContext?
    private let draining = Atomic<Bool>(false)
    /// The port the socket is bound to, once it is (the configured one until then).
    private let boundPort: Atomic<Int>
    private let onListening: @Sendable (_ host: String, _ port: Int) async -> Void

    /// Checks the configuration, reads the TLS files, and opens (or creates) the data directory, whose
    /// `packs.sqlite` is the store.
    ///
    /// - Parameters:
    ///   - timekeeper: the sync shell's time (commits, timeouts); a test gives one it moves itself.
    ///   - onListening: called once the socket is bound, with the address it is bound to.
    /// - Throws: ``ServerConfigurationError`` for a configuration it refuses, or what opening the data fails with.
    public convenience init(
        configuration: ServerConfiguration,
        logger: Logger,
        timekeeper: any Timekeeper = SystemTimekeeper(),
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) throws {
        try configuration.validate()
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory,
            withIntermediateDirectories: true
        )
        let metrics = ServerMetrics()
        let log = try PackLog(
            path: configuration.dataDirectory + "/packs.sqlite",
            maximumRoomBytes: UInt64(max(0, configuration.limits.maximumRoomBytes)),
            metrics: metrics,
            logger: logger
        )
        try self.init(
            configuration: configuration,
            store: log,
            id: try log.serverID(),
            metrics: metrics,
            logger: logger,
            timekeeper: timekeeper,
            onListening: onListening
        )
    }

    /// A server on `store`, whose replica id is `id` (``PackStore/serverID()``), one node of several
    /// when `cluster` links it to the others. The data directory holds the blobs' bytes.
    package init(
        configuration: ServerConfiguration,
        store: any PackStore,
        id: ReplicaID,
        cluster: ClusterFeed? = nil,
        metrics: ServerMetrics = ServerMetrics(),
        logger: Logger,
        timekeeper: any Timekeeper = SystemTimekeeper(),
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) throws {
        self.configuration = configuration
        self.logger = logger
        self.timekeeper = timekeeper
        self.onListening = onListening
        try configuration.validate()
        proxies = try configuration.proxies()
        tls = try configuration.tls.map(Self.tlsContext)
        hosts = configuration.hosts
        boundPort = Atomic(configuration.port)
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory,
            withIntermediateDirectories: true
        )
        self.metrics = metrics
        log = store
        self.id = id
        self.cluster = cluster
        blobs = try BlobStore(directory: configuration.dataDirectory + "/blobs")
        let core = SyncCore(
            id: id,
            log: store,
            limits: configuration.limits,
            commitLinger: configuration.commitLinger,
            presenceHold: configuration.presenceHold,
            openRooms: configuration.openRooms,
            metrics: metrics,
            timekeeper: timekeeper,
            cluster: cluster,
            logger: logger
        )
        hub = core.hub
        committer = core.committer
        endpoint = core.endpoint
        origins = OriginPolicy(allowed: configuration.allowedOrigins, hosts: hosts)
    }

    public func run() async throws {
        let application = makeApplication()
        try await withGracefulShutdownHandler {
            try await application.run()
        } onGracefulShutdown: {
            self.draining.store(true, ordering: .relaxed)
            self.logger.info("shutting down: closing connections and committing what they pushed")
        }
    }

    /// The metrics in Prometheus text format, as `/metrics` serves them.
    public var metricsExposition: String { metrics.exposition() }

    /// Whether a graceful shutdown has begun (health checks then say so).
    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// What stopped the pack log, if anything has: the server then refuses pushes until it restarts, and
    /// health checks say why.
    public var storageFault: StorageFault? { log.fault }

    /// The rooms the server holds packs or a snapshot of.
    public func roomNames() async throws -> [String] {
        try await log.roomNames()
    }

    /// Calls `hook` with the name of each room a connection follows from now on: what a LAN hub's relay
    /// to its upstream server starts from. It runs on the connection's task: it must return at once.
    public func onRoomFollowed(_ hook: @escaping @Sendable (String) -> Void) {
        endpoint.onFollow(hook)
    }

    /// The port the server listens on: the bound one once it is bound.
    var port: Int { boundPort.load(ordering: .relaxed) }

    private func makeApplication() -> some ApplicationProtocol {
        let limits = configuration.limits
        let router = Router(context: ServerRequestContext.self)
        var routes = HTTPRoutes.Configuration(
            maximumBlobBytes: limits.maximumBlobBytes,
            maximumBlobBytesPerRoom: limits.maximumBlobBytesPerRoom,
            blobBytesPerSecondPerAddress: limits.blobBytesPerSecondPerAddress,
            blobByteBurstPerAddress: limits.blobByteBurstPerAddress,
            openRooms: configuration.openRooms,
            webRoot: configuration.webRoot,
            servesTestPages: configuration.servesTestPages
        )
        routes.hosts = hosts
        routes.trustedProxies = proxies
        routes.listeningPort = { [unowned self] in self.port }
        routes.advertisedOnLAN = configuration.advertisedOnLAN
        HTTPRoutes(
            blobs: blobs,
            log: log,
            metrics: metrics,
            configuration: routes,
            logger: logger,
            isDraining: { [unowned self] in self.isDraining },
            storageFault: { [log] in log.fault }
        ).add(to: router)
        // A plain GET of the sync path (no upgrade asked for): say why it cannot be served. A refused
        // upgrade never reaches this route; the WebSocket layer answers it 400 (see HandshakeGuard).
        router.get("/sync") { [unowned self, origins, endpoint] request, _ -> Response in
            guard origins.permits(origin: request.headers[.origin], port: self.port) else {
                throw JSONError(.forbidden, "this page's origin may not open the sync socket")
            }
            guard endpoint.hasRoom else {
                throw JSONError(.serviceUnavailable, "the server is at its connection limit; try again later")
            }
            throw JSONError(.upgradeRequired, "the sync endpoint speaks WebSocket only")
        }
        let endpoint = endpoint
        let hosts = hosts
        let origins = origins
        let proxies = proxies
        let logger = logger
        let socketRoutes = configuration.socketRoutes
        let requests = RequestGuard.Configuration(
            hosts: hosts,
            port: { [unowned self] in self.port },
            bodyTimeout: TimeAmount(configuration.requestBodyTimeout),
            countResponse: { [metrics] in metrics.httpRequest(method: $0, status: $1) }
        )
        let server = HTTPServerBuilder.guardedWebSocketUpgrade(
            configuration: .init(
                http1: .init(
                    additionalChannelHandlers: [RequestGuard(configuration: requests, logger: logger)],
                    idleTimeout: .seconds(120)
                ),
                ws: .init(
                    maxFrameSize: limits.maximumFrameBytes,
                    autoPing: .enabled(timePeriod: limits.idleTimeout),
                    closeTimeout: limits.closeTimeout
                )
            ),
            guarding: .init(
                headerTimeout: TimeAmount(limits.headerTimeout),
                frames: .init(
                    closeTimeout: TimeAmount(limits.closeTimeout),
                    isDraining: { [unowned self] in self.isDraining },
                    countViolation: { [metrics] in metrics.protocolError(reason: $0) }
                )
            ),
            tls: tls
        ) { [unowned self, metrics] request, channel, logger in
            // Refused, a handshake is answered 400 by the WebSocket library; 421 for a host not served, as
            // the request guard answers any other request, 503 at the connection limit and 429 past an
            // address's.
            guard hosts.permits(host: request.authority, port: self.port) else {
                logger.info("handshake for a host this server does not answer: refusing it")
                metrics.httpRequest(method: request.method.rawValue, status: 421)
                HandshakeGuard.refuse(channel, status: .misdirectedRequest)
                return .dontUpgrade
            }
            let path = request.path ?? ""
            let other = socketRoutes.lazy.compactMap { route in
                route.request(for: path, serverPort: self.port).map { (route, $0) }
            }.first
            guard path.split(separator: "?", maxSplits: 1).first == "/sync" || other != nil,
                origins.permits(origin: request.headerFields[.origin], port: self.port)
            else { return .dontUpgrade }
            guard endpoint.hasRoom else {
                logger.warning("at the connection limit: refusing another")
                metrics.protocolError(reason: "connection limit")
                metrics.httpRequest(method: request.method.rawValue, status: 503)
                HandshakeGuard.refuse(channel, status: .serviceUnavailable)
                return .dontUpgrade
            }
            let client = proxies.client(of: channel.remoteAddress, headers: request.headerFields)
            let address = client?.ipAddress.map { Logger.MetadataValue.string($0) }
            var logger = logger
            logger[metadataKey: "client.address"] = address
            guard endpoint.addresses.take(client, closing: channel) else {
                logger.info("too many connections from one address: refusing another")
                metrics.protocolError(reason: "connections per address")
                metrics.httpRequest(method: request.method.rawValue, status: 429)
                HandshakeGuard.refuse(channel, status: .tooManyRequests)
                return .dontUpgrade
            }
            HandshakeGuard.upgrading(channel, logger: logger)
            // Counted against the address's slots like a sync connection (taken above, given back on close).
            if let (route, routed) = other {
                return .upgrade([:]) { inbound, outbound, context in
                    var connectionLogger = context.logger
                    connectionLogger[metadataKey: "client.address"] = address
                    connectionLogger[metadataKey: "route"] = "\(route.prefix)"
                    try await route.serve(routed, inbound, outbound, connectionLogger)
                }
            }
            return .upgrade([:]) { inbound, outbound, context in
                var connectionLogger = context.logger
                connectionLogger[metadataKey: "client.address"] = address
                try await endpoint.serve(
                    inbound: inbound,
                    outbound: outbound,
                    channel: channel,
                    logger: connectionLogger
                )
            }
        }
        return Application(
            router: router,
            server: server,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "inkwell"
            ),
            services: [
                committer,
                Compactor(
                    log: log,
                    retention: configuration.retention,
                    interval: configuration.compactionInterval,
                    metrics: metrics,
                    timekeeper: timekeeper,
                    logger: logger
                ),
            ] + (cluster.map { [$0] } ?? []),
            onServerRunning: { [unowned self, onListening, configuration] channel in
                let port = channel.localAddress?.port ?? configuration.port
                self.boundPort.store(port, ordering: .relaxed)
                logger.info(
                    "listening",
                    metadata: [
                        "host": "\(configuration.host)", "port": "\(port)",
                        "scheme": "\(configuration.tls == nil ? "http" : "https")",
                    ]
                )
                await onListening(configuration.host, port)
            },
            logger: logger
        )
    }
}
