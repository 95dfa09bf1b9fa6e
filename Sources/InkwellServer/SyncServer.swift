import Foundation
import Hummingbird
import HummingbirdWebSocket
public import InkwellSync
public import Logging
import NIOCore
import Prometheus
public import ServiceLifecycle
import Synchronization

/// The Inkwell server: the sync socket at `/sync`, blobs, health, metrics and the web client, over one
/// HTTP port, with every room's packs in one SQLite pack log.
///
/// Run it as a `Service` (in a `ServiceGroup` that turns SIGTERM into a graceful shutdown): it stops
/// accepting connections, closes the open ones, commits what they pushed, and returns.
public final class SyncServer: Service, Sendable {
    public let configuration: ServerConfiguration
    /// This server's replica id, kept in its pack log.
    public let id: ReplicaID
    let logger: Logger
    let log: PackLog
    let blobs: BlobStore
    let metrics: ServerMetrics
    let hub: RoomHub
    let committer: Committer
    let endpoint: SyncEndpoint
    let origins: OriginPolicy
    private let draining = Atomic<Bool>(false)
    private let onListening: @Sendable (_ host: String, _ port: Int) async -> Void

    /// Opens (or creates) the data directory.
    ///
    /// - Parameter onListening: called once the socket is bound, with the address it is bound to.
    public init(
        configuration: ServerConfiguration,
        logger: Logger,
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) throws {
        self.configuration = configuration
        self.logger = logger
        self.onListening = onListening
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory,
            withIntermediateDirectories: true
        )
        metrics = ServerMetrics()
        log = try PackLog(path: configuration.dataDirectory + "/packs.sqlite", metrics: metrics, logger: logger)
        id = try log.serverID()
        blobs = try BlobStore(directory: configuration.dataDirectory + "/blobs")
        hub = RoomHub(metrics: metrics)
        committer = Committer(
            log: log,
            hub: hub,
            metrics: metrics,
            linger: configuration.commitLinger,
            logger: logger
        )
        endpoint = SyncEndpoint(
            server: id,
            limits: configuration.limits,
            log: log,
            hub: hub,
            committer: committer,
            presenceHold: configuration.presenceHold,
            openRooms: configuration.openRooms,
            metrics: metrics
        )
        origins = OriginPolicy(allowed: configuration.allowedOrigins)
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

    private func makeApplication() -> some ApplicationProtocol {
        let limits = configuration.limits
        let router = Router(context: BasicRequestContext.self)
        HTTPRoutes(
            blobs: blobs,
            metrics: metrics,
            configuration: .init(maximumBlobBytes: limits.maximumBlobBytes, webRoot: configuration.webRoot),
            logger: logger,
            isDraining: { [unowned self] in self.isDraining },
            storageFault: { [log] in log.fault }
        ).add(to: router)
        // Reached only when the handshake was refused: say why.
        router.get("/sync") { [origins, endpoint] request, _ -> Response in
            guard origins.permits(origin: request.headers[.origin], host: request.head.authority) else {
                throw JSONError(.forbidden, "this page's origin may not open the sync socket")
            }
            guard endpoint.hasRoom else {
                throw JSONError(.serviceUnavailable, "the server is at its connection limit; try again later")
            }
            throw JSONError(.upgradeRequired, "the sync endpoint speaks WebSocket only")
        }
        let endpoint = endpoint
        let origins = origins
        let logger = logger
        return Application(
            router: router,
            server: .guardedWebSocketUpgrade(
                configuration: .init(
                    http1: .init(idleTimeout: .seconds(120)),
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
                )
            ) { request, channel, logger in
                guard request.path?.split(separator: "?", maxSplits: 1).first == "/sync",
                    origins.permits(origin: request.headerFields[.origin], host: request.authority),
                    endpoint.hasRoom
                else { return .dontUpgrade }
                HandshakeGuard.upgrading(channel, logger: logger)
                return .upgrade([:]) { inbound, outbound, context in
                    try await endpoint.serve(
                        inbound: inbound,
                        outbound: outbound,
                        channel: channel,
                        logger: context.logger
                    )
                }
            },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "inkwell"
            ),
            services: [committer],
            onServerRunning: { [onListening, configuration] channel in
                let port = channel.localAddress?.port ?? configuration.port
                logger.info("listening", metadata: ["host": "\(configuration.host)", "port": "\(port)"])
                await onListening(configuration.host, port)
            },
            logger: logger
        )
    }
}
