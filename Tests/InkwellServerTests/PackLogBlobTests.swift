import Foundation
import GRDB
import InkwellStore
import Testing

@testable import InkwellServer

/// Which room holds which blob, in the pack log: recorded once per room, counted against the room's quota,
/// and checked against it in the transaction that records, so racing uploads cannot both take the last bytes.
@Suite struct PackLogBlobTests {
    typealias Folder = PackLogTests.Folder

    static func hash(_ seed: UInt8) -> BlobHash {
        BlobHash(digest: [UInt8](repeating: seed, count: 32))!
    }

    @Test(arguments: StoreKind.allCases) func aBlobIsRecordedOncePerRoomAndCountedInEach(_ kind: StoreKind) async throws
    {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            #expect(try await log.blobs(room: "a", hash: Self.hash(1)) == .init(recordedSize: nil, chargedBytes: 0))
            #expect(try await log.recordBlob(room: "a", hash: Self.hash(1), size: 10_000, quota: 100_000) == .recorded)
            #expect(
                try await log.recordBlob(room: "a", hash: Self.hash(1), size: 10_000, quota: 100_000)
                    == .alreadyRecorded(size: 10_000)
            )
            #expect(try await log.recordBlob(room: "b", hash: Self.hash(1), size: 10_000, quota: 100_000) == .recorded)
            // A small blob counts as a disk block.
            #expect(try await log.recordBlob(room: "a", hash: Self.hash(2), size: 10, quota: 100_000) == .recorded)
            #expect(try await log.blobBytes(room: "a") == 10_000 + 4_096)
            #expect(try await log.blobBytes(room: "b") == 10_000)
            #expect(try await log.blobBytes(room: "c") == 0)
            #expect(try await log.blobSize(room: "a", hash: Self.hash(2)) == 10)
            #expect(try await log.blobSize(room: "c", hash: Self.hash(1)) == nil)
            #expect(
                try await log.blobs(room: "a", hash: Self.hash(1)) == .init(recordedSize: 10_000, chargedBytes: 14_096)
            )

            try await log.forgetBlob(room: "a", hash: Self.hash(2))
            #expect(try await log.blobBytes(room: "a") == 10_000)
            #expect(try await log.blobSize(room: "a", hash: Self.hash(2)) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases) func aBlobThatWouldPassTheQuotaIsRefusedAndChangesNothing(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            #expect(try await log.recordBlob(room: "a", hash: Self.hash(1), size: 6_000, quota: 12_000) == .recorded)
            #expect(
                try await log.recordBlob(room: "a", hash: Self.hash(2), size: 6_001, quota: 12_000)
                    == .overQuota(chargedBytes: 6_000)
            )
            #expect(try await log.blobSize(room: "a", hash: Self.hash(2)) == nil)
            // A small blob counts as 4,096 bytes: one does not fit in the 4,000 left after 8,000.
            #expect(try await log.recordBlob(room: "c", hash: Self.hash(1), size: 8_000, quota: 12_000) == .recorded)
            #expect(
                try await log.recordBlob(room: "c", hash: Self.hash(2), size: 1, quota: 12_000)
                    == .overQuota(chargedBytes: 8_000)
            )
            // Exactly up to the quota fits; another room has its own.
            #expect(try await log.recordBlob(room: "a", hash: Self.hash(3), size: 6_000, quota: 12_000) == .recorded)
            #expect(try await log.blobBytes(room: "a") == 12_000)
            #expect(try await log.recordBlob(room: "b", hash: Self.hash(2), size: 6_001, quota: 12_000) == .recorded)
            // A blob the room holds is answered as held even when the room is full.
            #expect(
                try await log.recordBlob(room: "a", hash: Self.hash(1), size: 6_000, quota: 12_000)
                    == .alreadyRecorded(size: 6_000)
            )
        }
    }

    @Test(arguments: StoreKind.allCases) func recordsRacingForTheLastBytesLetExactlyOneIn(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            let outcomes = try await withThrowingTaskGroup(of: PackLog.BlobRecording.self) { group in
                for seed in 1...16 as ClosedRange<UInt8> {
                    group.addTask {
                        try await log.recordBlob(room: "a", hash: Self.hash(seed), size: 6_000, quota: 10_000)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .recorded }.count == 1)
            #expect(outcomes.filter { $0 == .overQuota(chargedBytes: 6_000) }.count == 15)
            #expect(try await log.blobBytes(room: "a") == 6_000)
        }
    }

    /// A log made before blobs belonged to rooms gains the table and keeps its packs and rooms.
    @Test func migrationV5AddsRoomBlobsToAnOlderLog() async throws {
        let folder = try Folder()
        do {
            let pool = try DatabasePool(path: folder.file)
            try PackLog.migrator.migrate(pool, upTo: "v4")
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO pack (room, position, pack_id, bytes) VALUES ('legacy', 1, ?, ?)",
                    arguments: [Data(repeating: 7, count: 32), Data([1, 2, 3])]
                )
            }
            #expect(try await pool.read { db in try db.tableExists("room_blob") } == false)
        }
        let log = try PackLog(path: folder.file)
        #expect(try await log.head(room: "legacy") == 1)
        #expect(try await log.access(room: "legacy") == .open)
        #expect(try await log.recordBlob(room: "legacy", hash: Self.hash(1), size: 5, quota: 10_000) == .recorded)
        #expect(try await log.blobBytes(room: "legacy") == 4_096)
    }
}
