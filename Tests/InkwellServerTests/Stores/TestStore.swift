import Foundation
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import PostgresNIO
import Testing

@testable import InkwellServer

/// The stores a server runs on: the tests of the store's promises run against each.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// A new, empty store for one test: a SQLite file in a temporary folder, or a database of its own on the
/// test process's PostgreSQL cluster (``SharedPostgres``).
enum TestStore {
    /// Runs `body` with a new store of `kind`, then lets it go; returns nil, having said why, when `kind`
    /// cannot run here (PostgreSQL not installed; in CI that is a failure).
    @discardableResult
    static func with<Result: Sendable>(
        _ kind: StoreKind,
        maximumRoomBytes: UInt64 = .max,
        wallClock: any WallClock = SystemWallClock(),
        bytesBetweenSnapshots: UInt64 = PackLog.minimumBytesBetweenSnapshots,
        _ body: @Sendable (any PackStore) async throws -> Result
    ) async throws -> Result? {
        switch kind {
        case .sqlite:
            let folder = try PackLogTests.Folder()
            let log = try PackLog(
                path: folder.file,
                maximumRoomBytes: maximumRoomBytes,
                wallClock: wallClock,
                metrics: nil,
                logger: Logger(label: "test.store"),
                runsCallsInline: false,
                bytesBetweenSnapshots: bytesBetweenSnapshots
            )
            defer { withExtendedLifetime(folder) {} }
            return try await body(log)
        case .postgres:
            guard let url = try await postgresDatabase() else { return nil }
            return try await withPostgres(
                url: url,
                maximumRoomBytes: maximumRoomBytes,
                wallClock: wallClock,
                bytesBetweenSnapshots: bytesBetweenSnapshots,
                body
            )
        }
    }

    /// A new database on the process's cluster, or nil when PostgreSQL is not installed.
    static func postgresDatabase() async throws -> String? {
        try await SharedPostgres.database(skipping: "a test on PostgreSQL") { Issue.record("\($0)") }
    }

    /// Runs `body` with a prepared store on the database at `url`, its client running meanwhile.
    static func withPostgres<Result: Sendable>(
        url: String,
        maximumRoomBytes: UInt64 = .max,
        wallClock: any WallClock = SystemWallClock(),
        bytesBetweenSnapshots: UInt64 = PackLog.minimumBytesBetweenSnapshots,
        _ body: @Sendable (PostgresPackLog) async throws -> Result
    ) async throws -> Result {
        let client = try PostgresPackLog.client(url: url)
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            let log = PostgresPackLog(
                client: client,
                maximumRoomBytes: maximumRoomBytes,
                bytesBetweenSnapshots: bytesBetweenSnapshots,
                wallClock: wallClock,
                // Generous: tests run many at once on a shared cluster; a refusal in time has tests of its own.
                operationTimeout: .seconds(60),
                logger: Logger(label: "test.store")
            )
            try await log.prepare()
            return try await body(log)
        }
    }
}

extension PackStore {
    /// A batch without watermarks.
    func append(_ pushes: [PackLog.Push]) async throws -> [PackLog.Appended] {
        try await append(pushes, watermarks: [])
    }

    func packs(room: String, after position: UInt64) async throws -> [StoredPack] {
        try await packs(room: room, after: position, maximumBytes: 4 << 20)
    }

    func compact(retention: Duration) async throws -> [PackLog.Compaction] {
        try await compact(retention: retention, injectedBug: nil)
    }

    func recordCheck(room: String, snapshot: SnapshotID, signer: ReplicaID) async throws -> Bool {
        try await recordCheck(room: room, snapshot: snapshot, signer: signer, device: nil)
    }
}
