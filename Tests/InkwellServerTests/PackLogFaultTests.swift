import Foundation
import GRDB
import InMemoryLogging
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import NIOCore
import Testing

@testable import InkwellServer

/// A pack log whose file fails under it: every read or commit that cannot be made throws, none answers
/// 0 or nothing, and nothing brings the process down.
@Suite struct PackLogFaultTests {
    /// A push of `size` seeded bytes: the log stores packs without opening them. The one place these
    /// tests make packs, for when a pack's id changes.
    static func push(_ room: String, size: Int, using random: inout SeededGenerator) -> PackLog.Push {
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        return PackLog.Push(room: room, pack: PackID(of: bytes), bytes: bytes)
    }

    /// A log as a running server's is between checkpoints: rooms `b` and `c` (200 packs of 3 KB each)
    /// in its main file, one later commit (room `a`) in its WAL, and a reader that has read room `c`'s
    /// head, so its connection has mapped the file (or cached those pages).
    static func logWithAWarmReader(
        in folder: PackLogTests.Folder,
        metrics: ServerMetrics? = nil,
        logs: InMemoryLogHandler = InMemoryLogHandler()
    ) async throws -> PackLog {
        let log = try PackLog(path: folder.file, metrics: metrics, logger: Logger(label: "test.log") { _ in logs })
        var random = SeededGenerator(seed: 7)
        _ = try await log.append((0..<400).map { Self.push($0 < 200 ? "b" : "c", size: 3_000, using: &random) })
        try await log.pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        _ = try await log.append([Self.push("a", size: 10, using: &random)])
        #expect(try await log.head(room: "c") == 200)
        return log
    }

    /// What a reader sees of a disk that fails under it: the log's pages past the first cannot be read.
    /// (Cut short, a file mapped into memory raises SIGBUS where its pages are gone, as an I/O error under
    /// a map does.)
    static func losePages(of file: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.truncate(atOffset: 4_096)
        try handle.close()
    }

    @Test func aHeadReadOfPagesThatCannotBeReadThrows() async throws {
        let folder = try PackLogTests.Folder()
        let log = try await Self.logWithAWarmReader(in: folder)
        try Self.losePages(of: folder.file)
        await #expect(throws: (any Error).self) { _ = try await log.head(room: "b") }
        await #expect(throws: (any Error).self) { _ = try await log.progress(room: "b", after: 0) }
    }

    @Test func aCatchUpReadOfPagesThatCannotBeReadThrows() async throws {
        let folder = try PackLogTests.Folder()
        let log = try await Self.logWithAWarmReader(in: folder)
        try Self.losePages(of: folder.file)
        await #expect(throws: (any Error).self) {
            _ = try await log.catchUp(
                [.init(room: "b", after: 0, withProgress: true)],
                maximumBytes: 4 << 20,
                allocator: ByteBufferAllocator()
            )
        }
    }

    @Test func theFirstFaultStopsEveryLaterCommitAndIsLoggedOnce() async throws {
        let folder = try PackLogTests.Folder()
        let metrics = ServerMetrics()
        let logs = InMemoryLogHandler()
        let log = try await Self.logWithAWarmReader(in: folder, metrics: metrics, logs: logs)
        #expect(log.fault == nil)
        try Self.losePages(of: folder.file)
        await #expect(throws: StorageFault.corrupt) { _ = try await log.head(room: "b") }
        #expect(log.fault == .corrupt)

        // Refused without touching the file: no second error is counted or logged.
        var random = SeededGenerator(seed: 8)
        let push = Self.push("a", size: 10, using: &random)
        await #expect(throws: StorageFault.corrupt) { _ = try await log.append([push], watermarks: []) }
        #expect(throws: StorageFault.corrupt) { _ = try log.append([push]) }
        #expect(throws: StorageFault.corrupt) { try log.setWatermark(room: "a", device: .random(), to: 1) }
        let samples = ServerMetricsTests.samples(metrics)
        #expect(samples.contains(#"inkwell_storage_errors_total{kind="corrupt"} 1"#))
        #expect(samples.contains("inkwell_storage_failed 1.0"))
        let critical = logs.entries.filter { $0.level == .critical }
        #expect(critical.count == 1)
        #expect(critical.first?.metadata["reason"] == "\(StorageFault.corrupt.reason)")
    }

    /// Every commit error is a fault but a cancelled one; a read error is one only when it is about the file.
    @Test func faultsAreToldApartFromErrorsThatSayNothingOfTheStorage() {
        let cases: [(ResultCode, StorageFault.Kind)] = [
            (.SQLITE_FULL, .diskFull), (.SQLITE_IOERR_FSYNC, .io), (.SQLITE_IOERR_READ, .io),
            (.SQLITE_IOERR_WRITE, .io), (.SQLITE_CORRUPT, .corrupt), (.SQLITE_NOTADB, .corrupt),
            (.SQLITE_CANTOPEN, .unavailable), (.SQLITE_READONLY, .unavailable),
        ]
        for (code, kind) in cases {
            for committing in [true, false] {
                #expect(StorageFault(DatabaseError(resultCode: code), committing: committing)?.kind == kind, "\(code)")
            }
        }
        #expect(StorageFault(DatabaseError(resultCode: .SQLITE_IOERR_FSYNC), committing: true) == .syncFailed)
        #expect(StorageFault(DatabaseError(resultCode: .SQLITE_BUSY), committing: true) == .commitFailed)
        #expect(StorageFault(DatabaseError(resultCode: .SQLITE_BUSY), committing: false) == nil)
        #expect(StorageFault(DatabaseError(resultCode: .SQLITE_INTERRUPT), committing: true) == nil)
        #expect(StorageFault(CancellationError(), committing: true) == nil)
        for fault in [StorageFault.diskFull, .syncFailed, .ioError, .corrupt, .unavailable, .commitFailed] {
            #expect(!fault.reason.isEmpty && !fault.reason.contains("SQLite"), "plain words: \(fault.reason)")
        }
    }
}
