import Foundation
package import Logging
import PostgresNIO
package import ServiceLifecycle
import Synchronization

/// One server node of several sharing a PostgreSQL database (`inkwell serve --postgres URL`): the
/// database client, the pack log on it, the feed that links the nodes, and the server itself, run as one
/// service. Nodes keep no state of their own but the blobs' bytes, under the data directory, which the
/// nodes share (see docs/ARCHITECTURE.md, "Several nodes"); any node serves any client.
package final class PostgresNode: Service, Sendable {
    let configuration: ServerConfiguration
    let url: String
    let logger: Logger
    let node: String
    let onListening: @Sendable (_ host: String, _ port: Int) async -> Void
    private let started = Mutex<SyncServer?>(nil)

    /// The server, once the database is prepared and it is made (before it listens).
    package var server: SyncServer? { started.withLock { $0 } }

    /// - Parameters:
    ///   - url: the database, `postgres://user:password@host:port/database` (`?sslmode=disable` for no TLS).
    ///   - node: this node's name in the metrics and the logs; a fresh one by default.
    package init(
        configuration: ServerConfiguration,
        url: String,
        node: String = UUID().uuidString,
        logger: Logger,
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) {
        self.configuration = configuration
        self.url = url
        self.node = node
        var logger = logger
        logger[metadataKey: "node"] = "\(node)"
        self.logger = logger
        self.onListening = onListening
    }

    /// Connects, checks and migrates the database, then serves until a graceful shutdown or cancellation.
    package func run() async throws {
        try configuration.validate()
        let client = try PostgresPackLog.client(url: url)
        // The database's client runs apart from this task, detached so that neither a cancellation of
        // the node nor its graceful shutdown (which the client would heed, as a service) stops it under
        // the server: the server, stopping, still commits what its connections pushed. It is stopped once
        // the server has.
        let connections = Task.detached { await client.run() }
        do {
            try await serve(on: client)
        } catch {
            connections.cancel()
            await connections.value
            throw error
        }
        connections.cancel()
        await connections.value
    }

    private func serve(on client: PostgresClient) async throws {
        let metrics = ServerMetrics()
        metrics.identify(node: node, store: "postgresql")
        let store = PostgresPackLog(
            client: client,
            maximumRoomBytes: UInt64(max(0, configuration.limits.maximumRoomBytes)),
            metrics: metrics,
            logger: logger
        )
        try await store.prepare()
        let feed = ClusterFeed(client: client, store: store, node: node, metrics: metrics, logger: logger)
        let server = try SyncServer(
            configuration: configuration,
            store: store,
            id: try await store.serverID(),
            cluster: feed,
            metrics: metrics,
            logger: logger,
            onListening: onListening
        )
        started.withLock { $0 = server }
        try await server.run()
    }
}
