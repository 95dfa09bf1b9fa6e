import Foundation
import GRDB
import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellWire
import Logging

/// A room's history on a real server before and after compaction: the bytes the server keeps for it,
/// and the first sync of a new device (a `SyncClient` into a new SQLite store), from the packs and then
/// from the snapshot that replaced them.
///
/// The corpus is pushed by its authors, who then leave: once they have been away longer than the
/// server's retention, a device that synced the whole room from its packs, drew one stroke (so it is an
/// author) and sent a snapshot is the only author present, and the server drops the packs.
struct HistoryRun {
    let corpus: HistoryCorpus
    let retentionSeconds: Double

    struct Result {
        var packsBytes: UInt64 = 0
        var packsCount = 0
        var compactedBytes: UInt64 = 0
        var compactedCount = 0
        var fromPacks: Sync = Sync()
        var fromSnapshot: Sync = Sync()
        /// The first device's own store of the history, before and after it compacts it.
        var device = DeviceCompaction()
    }

    /// A new device's first sync.
    struct Sync {
        var seconds = 0.0
        var bytesReceived = 0
        var stored = 0
        var storeBytes = 0
        var rebases = 0
    }

    func measure() async throws -> Result {
        let server = try BenchServer(arguments: [
            "--retention-hours", "\(retentionSeconds / 3_600)", "--compaction-interval", "0.2",
            "--room-bytes", "\(4 << 30)",
        ])
        defer { server.stop() }
        try await W5Corpus.push(corpus.packs, to: server.url, connections: 16)
        var result = Result()
        (result.packsBytes, result.packsCount) = try Self.kept(in: server)
        let pushedAt = ContinuousClock.now

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-bench-history-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (keeper, fromPacks) = try await Self.firstSync(
            from: server,
            path: folder.appendingPathComponent("keeper.sqlite").path,
            snapshotThreshold: 1
        )
        result.fromPacks = fromPacks
        guard fromPacks.stored == corpus.changeCount else {
            throw BenchError("the first device stored \(fromPacks.stored) of \(corpus.changeCount) changes")
        }
        // The first device compacts its own store, leaving out what stopped mattering; the snapshot it sends
        // is then made from what it kept.
        result.device = try DeviceCompaction.measure(
            keeper.store,
            path: folder.appendingPathComponent("keeper.sqlite").path,
            copy: folder.appendingPathComponent("kept-whole.sqlite").path
        )
        // The authors have left; the keeper draws once, so it is an author, and sends its snapshot.
        let waited = ContinuousClock.now - pushedAt
        let retention = Duration.milliseconds(Int64(retentionSeconds * 1_000))
        if waited < retention { try await Task.sleep(for: retention - waited) }
        try await keeper.drawOnceAndSnapshot(from: server)
        let deadline = ContinuousClock.now + .seconds(600)
        while try Self.floor(in: server) == nil {
            guard ContinuousClock.now < deadline else { throw BenchError("the server never compacted the room") }
            try await Task.sleep(for: .milliseconds(200))
        }
        (result.compactedBytes, result.compactedCount) = try Self.kept(in: server)
        let (newcomer, fromSnapshot) = try await Self.firstSync(
            from: server,
            path: folder.appendingPathComponent("newcomer.sqlite").path,
            snapshotThreshold: nil
        )
        result.fromSnapshot = fromSnapshot
        // The snapshot leaves out what stopped mattering: the new device holds fewer changes, and shows the
        // same board.
        let shows = try Self.boardHash(newcomer.store) == Self.boardHash(keeper.store)
        let drawn = try keeper.store.lastSeq(of: try keeper.store.replica(for: HistoryCorpus.room))
        let total = corpus.changeCount + Int(drawn)
        guard fromSnapshot.stored <= total, fromSnapshot.rebases == 1, shows else {
            throw BenchError(
                "the new device stored \(fromSnapshot.stored) of \(total) changes, "
                    + "\(fromSnapshot.rebases) rebases, \(shows ? "the same" : "another") board"
            )
        }
        return result
    }

    /// A device that holds the room, and sends a snapshot when it may.
    final class Keeper: Sendable {
        let store: Store
        let threshold: Int?

        init(store: Store, threshold: Int?) {
            self.store = store
            self.threshold = threshold
        }

        func client(_ server: BenchServer) throws -> SyncClient {
            var configuration = SyncClient.Configuration()
            configuration.snapshotThreshold = threshold
            configuration.snapshotDelay = .zero
            configuration.documentTypes = DocumentTypes(documents: [BoardState.self])
            return try SyncClient(
                store: store,
                url: URL(string: server.url)!,
                rooms: [HistoryCorpus.room],
                configuration: configuration,
                logger: W5Corpus.logger
            )
        }

        /// A one-point stroke.
        static let dot = BoardEdit(
            board: "main",
            operations: [.addStroke(StrokeStyle(colour: .black, width: 2), points: [.init(1, 1)], pressures: nil)]
        )

        /// Draws one stroke and stays until its snapshot is sent and stored.
        func drawOnceAndSnapshot(from server: BenchServer) async throws {
            let client = try client(server)
            let running = Task { try await client.run() }
            defer { running.cancel() }
            _ = try await client.record(Self.dot, room: HistoryCorpus.room)
            // A snapshot is considered as frames arrive. The room is otherwise quiet, and an acknowledgement
            // alone may leave the device's position short of its own stroke: it draws again every few
            // seconds, as a device in use does, until one is sent.
            let deadline = ContinuousClock.now + .seconds(600)
            var nextStroke = ContinuousClock.now + .seconds(5)
            while try await client.statistics.snapshotsUploaded == 0 || client.store.outboxSize().changes > 0 {
                guard ContinuousClock.now < deadline else { throw BenchError("no snapshot was sent") }
                if ContinuousClock.now >= nextStroke {
                    _ = try await client.record(Self.dot, room: HistoryCorpus.room)
                    nextStroke = ContinuousClock.now + .seconds(5)
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            try await client.waitUntilSynced(timeout: .seconds(600))
            await client.stop()
            _ = try? await running.value
        }
    }

    static func firstSync(
        from server: BenchServer,
        path: String,
        snapshotThreshold: Int?
    ) async throws -> (Keeper, Sync) {
        let keeper = Keeper(store: try Store(path: path), threshold: snapshotThreshold)
        let client = try keeper.client(server)
        let seconds = try await W5Corpus.secondsToSync(client, timeout: .seconds(1_200))
        let statistics = await client.statistics
        let stored = try keeper.store.changes(room: HistoryCorpus.room, notIn: VersionVector()).count
        let bytes = try Self.fileBytes(path)
        return (
            keeper,
            Sync(
                seconds: seconds,
                bytesReceived: statistics.bytesReceived,
                stored: stored,
                storeBytes: bytes,
                rebases: statistics.rebases
            )
        )
    }

    /// The fingerprint of the board a store holds.
    static func boardHash(_ store: Store) throws -> String {
        var board = BoardState(board: "main")
        for change in try store.changes(room: HistoryCorpus.room, document: "main") {
            board.apply(try change.decoded(as: BoardEdit.self))
        }
        return board.canonicalHash
    }

    /// The bytes and number of the packs (snapshot parts included) the server keeps for the room.
    static func kept(in server: BenchServer) throws -> (UInt64, Int) {
        try read(server) { db in
            let row = try Row.fetchOne(
                db,
                sql: "SELECT IFNULL(SUM(LENGTH(bytes)), 0), COUNT(*) FROM pack WHERE room = ?",
                arguments: [HistoryCorpus.room]
            )!
            return (UInt64(row[0] as Int64), Int(row[1] as Int64))
        }
    }

    static func floor(in server: BenchServer) throws -> Int64? {
        try read(server) { db in
            try Int64.fetchOne(
                db,
                sql: "SELECT position FROM room_floor WHERE room = ?",
                arguments: [HistoryCorpus.room]
            )
        }
    }

    /// Reads the server's pack log beside it (SQLite lets a reader in while the server writes).
    static func read<T>(_ server: BenchServer, _ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(
            path: server.folder.appendingPathComponent("packs.sqlite").path,
            configuration: configuration
        )
        return try queue.read(body)
    }

    /// A store's files on disk, its write-ahead log included.
    static func fileBytes(_ path: String) throws -> Int {
        try [path, path + "-wal"].reduce(0) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            return total + (size ?? 0)
        }
    }
}
