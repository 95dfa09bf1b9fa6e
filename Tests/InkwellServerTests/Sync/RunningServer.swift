import Foundation
import InkwellClient
import InkwellServer
import InkwellSync
import InkwellWire
import Logging
import Synchronization

/// A ``SyncServer`` running in this process on a free loopback port, its data in a temporary folder.
final class RunningServer: Sendable {
    let port: Int
    let directory: URL
    let server: SyncServer
    private let task: Task<Void, any Error>

    private init(port: Int, directory: URL, server: SyncServer, task: Task<Void, any Error>) {
        self.port = port
        self.directory = directory
        self.server = server
        self.task = task
    }

    static func start(
        limits: ServerLimits = ServerLimits(),
        allowedOrigins: Set<String> = [],
        directory: URL? = nil,
        openRooms: Bool = true,
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
        let server = try SyncServer(configuration: configuration, logger: logger) { _, port in
            reported.yield(port)
            reported.finish()
        }
        let task = Task { try await server.run() }
        guard let port = await ports.first(where: { _ in true }) else { throw TestFailure("the server did not start") }
        return RunningServer(port: port, directory: directory, server: server, task: task)
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

    /// The packs the server's log holds for `room`.
    func stored(room: String) async throws -> [StoredPack] {
        try await packLog().packs(room: room, after: 0)
    }

    /// The pack log, opened beside the running server (SQLite allows it; WAL readers see commits).
    func packLog() throws -> PackLog {
        try PackLog(path: directory.appendingPathComponent("packs.sqlite").path)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
