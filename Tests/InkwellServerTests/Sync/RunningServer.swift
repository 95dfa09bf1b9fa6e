import Foundation
import InkwellClient
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import Synchronization

@testable import InkwellServer

/// A ``SyncServer`` running in this process on a free loopback port, its data in a temporary folder: on
/// a SQLite file there, or as a node on a PostgreSQL database (`INKWELL_TEST_STORE=postgres` runs the
/// suites that start servers this way on PostgreSQL; a test of one store names it).
final class RunningServer: Sendable {
    let port: Int
    let directory: URL
    let server: SyncServer
    /// The database the node runs on, when it runs on PostgreSQL.
    let postgresURL: String?
    private let task: Task<Void, any Error>

    private init(port: Int, directory: URL, server: SyncServer, postgresURL: String?, task: Task<Void, any Error>) {
        self.port = port
        self.directory = directory
        self.server = server
        self.postgresURL = postgresURL
        self.task = task
    }

    /// The store the suites' servers run on: SQLite unless `INKWELL_TEST_STORE` says `postgres`.
    static var configuredStore: StoreKind {
        ProcessInfo.processInfo.environment["INKWELL_TEST_STORE"].flatMap(StoreKind.init(rawValue:)) ?? .sqlite
    }

    /// Starts a server. On PostgreSQL it takes a new database unless `postgresURL` names one (several nodes
    /// of one cluster share it).
    static func start(
        limits: ServerLimits = ServerLimits(),
        allowedOrigins: Set<String> = [],
        directory: URL? = nil,
        openRooms: Bool = true,
        store: StoreKind = configuredStore,
        postgresURL: String? = nil,
        logger: Logger? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> RunningServer {
        let directory =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-server-\(UUID().uuidString)")
        let (ports, reported) = AsyncStream.makeStream(of: Int.self)
        var logger = logger ?? Logger(label: "test.server")
        if logger.logLevel < .warning { logger.logLevel = .warning }
        var configuration = ServerConfiguration(
            port: 0,
            dataDirectory: directory.path,
            allowedOrigins: allowedOrigins,
            limits: limits,
            openRooms: openRooms
        )
        configure(&configuration)
        switch store {
        case .sqlite:
            let server = try SyncServer(configuration: configuration, logger: logger) { _, port in
                reported.yield(port)
                reported.finish()
            }
            let task = Task { try await server.run() }
            guard let port = await ports.first(where: { _ in true }) else {
                throw TestFailure("the server did not start")
            }
            return RunningServer(port: port, directory: directory, server: server, postgresURL: nil, task: task)
        case .postgres:
            var url = postgresURL
            if url == nil { url = try await TestStore.postgresDatabase() }
            guard let url else { throw TestFailure("PostgreSQL is not installed here") }
            let node = PostgresNode(configuration: configuration, url: url, logger: logger) { _, port in
                reported.yield(port)
                reported.finish()
            }
            let task = Task {
                // A node that fails to start ends the wait for its port.
                defer { reported.finish() }
                try await node.run()
            }
            guard let port = await ports.first(where: { _ in true }), let server = node.server else {
                task.cancel()
                _ = try await task.value
                throw TestFailure("the node did not start")
            }
            return RunningServer(port: port, directory: directory, server: server, postgresURL: url, task: task)
        }
    }

    var url: String { "ws://127.0.0.1:\(port)/sync" }

    /// Connects a peer and, unless told not to, says hello and checks the welcome.
    func peer(
        device: ReplicaID = .random(),
        hello: Bool = true,
        headers: [String: String] = [:]
    ) async throws
        -> TestPeer
    {
        let peer = try await TestPeer.connect(url: url, device: device, headers: headers)
        if hello {
            try await peer.send(
                .hello(
                    protocolVersion: SyncProtocol.version,
                    minimumProtocolVersion: SyncProtocol.minimumVersion,
                    device: device,
                    agent: "tests"
                )
            )
            guard case .welcome = try await peer.next() else { throw TestFailure("no welcome") }
        }
        return peer
    }

    /// Stops the server and removes its data.
    func stop(keepingData: Bool = false) async {
        task.cancel()
        _ = try? await task.value
        if !keepingData { try? FileManager.default.removeItem(at: directory) }
    }

    /// The packs the server's store holds for `room`.
    func stored(room: String) async throws -> [StoredPack] {
        try await withStore { store in try await store.packs(room: room, after: 0, maximumBytes: .max) }
    }

    /// Runs `body` with the server's store, opened beside the running server (SQLite allows it: WAL readers
    /// see commits; PostgreSQL serves any number of clients).
    func withStore<Result: Sendable>(_ body: @Sendable (any PackStore) async throws -> Result) async throws -> Result {
        if let postgresURL { return try await TestStore.withPostgres(url: postgresURL, body) }
        return try await body(try packLog())
    }

    /// The SQLite pack log, opened beside the running server: for tests of SQLite's own faults.
    func packLog() throws -> PackLog {
        guard postgresURL == nil else { throw TestFailure("the server runs on PostgreSQL, not a SQLite file") }
        return try PackLog(path: directory.appendingPathComponent("packs.sqlite").path)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
