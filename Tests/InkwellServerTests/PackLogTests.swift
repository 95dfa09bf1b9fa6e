import Foundation
import InkwellSync
import InkwellWire
import NIOCore
import Testing

@testable import InkwellServer

@Suite struct PackLogTests {
    /// A folder for one test's log file, removed afterwards.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("packlog-\(UUID())")
        var file: String { url.appendingPathComponent("log.sqlite").path }
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static func push(_ room: String, _ id: UInt64, size: Int = 10) -> PackLog.Push {
        PackLog.Push(
            room: room,
            pack: PackID(of: [UInt8](repeating: UInt8(id % 251), count: 8) + [UInt8(id >> 8), UInt8(id & 0xFF)]),
            bytes: [UInt8](repeating: UInt8(id % 251), count: size)
        )
    }

    @Test(arguments: StoreKind.allCases) func positionsGrowPerRoomAndABatchCommitsTogether(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            #expect(
                try await log.append([Self.push("a", 1), Self.push("b", 2), Self.push("a", 3)]) == [
                    .stored(1), .stored(1), .stored(2),
                ]
            )
            #expect(try await log.append([Self.push("a", 4)]) == [.stored(3)])
            #expect(try await log.packs(room: "a", after: 0).map(\.serverSeq) == [1, 2, 3])
            #expect(try await log.packs(room: "a", after: 2).map(\.bytes) == [Self.push("a", 4).bytes])
        }
    }

    /// The rooms a hub relays to its upstream: every room that holds packs, each once, by name.
    @Test(arguments: StoreKind.allCases) func theRoomsHeldAreListedOnceEach(_ kind: StoreKind) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            #expect(try await log.roomNames().isEmpty)
            _ = try await log.append([Self.push("b", 1), Self.push("a", 2), Self.push("b", 3)])
            _ = try await log.append([Self.push("c", 4)])
            #expect(try await log.roomNames() == ["a", "b", "c"])
        }
    }

    @Test func pushingAPackAgainStoresItOnceEvenAfterARestart() throws {
        let folder = try Folder()
        do {
            let log = try PackLog(path: folder.file)
            #expect(try log.append([Self.push("a", 1), Self.push("a", 1)]) == [.stored(1), .stored(1)])
        }
        let reopened = try PackLog(path: folder.file)
        #expect(try reopened.append([Self.push("a", 1), Self.push("a", 2)]) == [.stored(1), .stored(2)])
        #expect(try reopened.packs(room: "a", after: 0).count == 2)
    }

    /// A pack pushed twice in one batch, or again with other bytes in it, gets the first one's answer or a
    /// conflict, and the watermarks committed with the batch only ever move forward.
    @Test(arguments: StoreKind.allCases) func repeatsWithinOneBatchAndItsWatermarksAreDecidedInOrder(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            let first = Self.push("a", 1)
            var impostor = first
            impostor.bytes[0] ^= 0xFF
            let device = ReplicaID(high: 9, low: 9)
            let marks = [
                PackLog.Watermark(room: "a", device: device, position: 2),
                PackLog.Watermark(room: "a", device: device, position: 1),
            ]
            #expect(
                try await log.append([first, Self.push("b", 2), first, impostor, Self.push("a", 3)], watermarks: marks)
                    == [.stored(1), .stored(1), .stored(1), .conflict, .stored(2)]
            )
            #expect(try await log.watermark(room: "a", device: device) == 2)
            #expect(
                try await log.append([], watermarks: [PackLog.Watermark(room: "a", device: device, position: 1)]) == []
            )
            #expect(try await log.watermark(room: "a", device: device) == 2)
            #expect(try await log.packs(room: "a", after: 0).map(\.bytes) == [first.bytes, Self.push("a", 3).bytes])
        }
    }

    /// The same id with other bytes is refused, in the same batch as honest pushes, and what is stored
    /// stays: an id names exactly one pack.
    @Test(arguments: StoreKind.allCases) func theSameIdWithOtherBytesIsRefusedAndTheStoredPackStays(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            let original = Self.push("a", 1)
            #expect(try await log.append([original]) == [.stored(1)])
            var impostor = original
            impostor.bytes[0] ^= 0xFF
            let honest = Self.push("a", 2)
            #expect(try await log.append([impostor, honest, original]) == [.conflict, .stored(2), .stored(1)])
            #expect(try await log.packs(room: "a", after: 0).map(\.bytes) == [original.bytes, honest.bytes])
            // The same id in another room is another room's business.
            var elsewhere = impostor
            elsewhere.room = "b"
            #expect(try await log.append([elsewhere]) == [.stored(1)])
        }
    }

    @Test(arguments: StoreKind.allCases) func catchUpIsCoalescedIntoFramesOfBoundedSize(_ kind: StoreKind) async throws
    {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            _ = try await log.append((1...10 as ClosedRange<UInt64>).map { Self.push("a", $0, size: 1_000) })
            #expect(try await log.packs(room: "a", after: 0, maximumBytes: 3_500).map(\.serverSeq) == [1, 2, 3])
            #expect(
                try await log.packs(room: "a", after: 9, maximumBytes: 10).map(\.serverSeq) == [10],
                "always at least one"
            )
            let progress = try await log.progress(room: "a", after: 7)
            #expect(progress.head == 10 && progress.bytesAfter == 3_000)
            #expect(try await log.progress(room: "empty", after: 0).head == 0)
        }
    }

    /// The catch-up frame written straight from the log holds the packs ``PackLog/packs(room:after:maximumBytes:)``
    /// returns, in the bytes the generated encoder writes for them.
    @Test(arguments: StoreKind.allCases) func catchUpFramesAreTheEncodedPacks(_ kind: StoreKind) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            _ = try await log.append((1...10 as ClosedRange<UInt64>).map { Self.push("a", $0, size: 100 * Int($0)) })
            for (after, maximumBytes) in [(0, 1_000), (3, 10), (9, 4 << 20), (0, 4 << 20)] as [(UInt64, Int)] {
                let packs = try await log.packs(room: "a", after: after, maximumBytes: maximumBytes)
                var reads = try await log.catchUp(
                    [.init(room: "a", after: after, withProgress: false)],
                    maximumBytes: maximumBytes,
                    allocator: ByteBufferAllocator()
                )
                #expect(reads.count == 1 && reads[0].progress == nil)
                let taken = reads[0].frame.take()
                var frame = try #require(taken)
                #expect(frame.last == packs.last?.serverSeq)
                let bytes = Array(frame.finish(head: 10).readableBytesView)
                #expect(bytes == SyncCodec.encode(.packs(room: "a", packs: packs, head: 10)))
            }
            let none = try await log.catchUp(
                [.init(room: "a", after: 10, withProgress: true)],
                maximumBytes: 10,
                allocator: ByteBufferAllocator()
            )
            #expect(none.count == 1 && none[0].frame == nil)
            #expect(none[0].progress?.head == 10 && none[0].progress?.bytesAfter == 0)
        }
    }

    /// Several rooms share one read and its budget: each room's packs fill its own frame, in order,
    /// and the first room whose next pack does not fit is left for the next read, progress and all.
    @Test(arguments: StoreKind.allCases) func oneCatchUpReadServesSeveralRoomsWithinOneBudget(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            for room in ["a", "b", "c", "d"] {
                _ = try await log.append((1...3 as ClosedRange<UInt64>).map { Self.push(room, $0, size: 1_000) })
            }
            let requests: [PackLog.CatchUpRequest] = [
                .init(room: "a", after: 0, withProgress: true),
                .init(room: "empty", after: 0, withProgress: true),
                .init(room: "b", after: 1, withProgress: false),
                .init(room: "c", after: 0, withProgress: true),
                .init(room: "d", after: 0, withProgress: true),
            ]
            // 3,000 bytes of a, 2,000 of b, then one of c's packs fits in 6,500; d waits.
            var reads = try await log.catchUp(requests, maximumBytes: 6_500, allocator: ByteBufferAllocator())
            #expect(reads.map(\.room) == ["a", "empty", "b", "c"])
            #expect(reads.map { $0.frame?.last } == [3, nil, 3, 1])
            #expect(reads[0].progress?.head == 3 && reads[0].progress?.bytesAfter == 3_000)
            #expect(reads[1].progress?.head == 0 && reads[2].progress == nil)
            #expect(reads[3].progress?.bytesAfter == 3_000)
            let taken = reads[2].frame.take()
            var frame = try #require(taken)
            let expected = try await log.packs(room: "b", after: 1)
            #expect(
                Array(frame.finish(head: 3).readableBytesView)
                    == SyncCodec.encode(.packs(room: "b", packs: expected, head: 3))
            )

            // A read always carries at least one pack, however small the budget.
            let small = try await log.catchUp(
                Array(requests.suffix(2)),
                maximumBytes: 10,
                allocator: ByteBufferAllocator()
            )
            #expect(small.map(\.room) == ["c"] && small[0].frame?.last == 1)
        }
    }

    @Test(arguments: StoreKind.allCases) func deviceWatermarksOnlyMoveForward(_ kind: StoreKind) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            let device = ReplicaID(high: 1, low: 1)
            try await log.setWatermark(room: "a", device: device, to: 5)
            try await log.setWatermark(room: "a", device: device, to: 3)
            #expect(try await log.watermark(room: "a", device: device) == 5)
            #expect(try await log.watermark(room: "b", device: device) == 0)
        }
    }
}
