import Foundation
import GRDB
import InkwellSync
import InkwellWire
import NIOCore
import Synchronization
import Testing

@testable import InkwellServer

/// Snapshots in the pack log, and compaction: packs are dropped only once a whole snapshot stands for
/// them and every author present has checked it, never further than a present device holds, and a
/// snapshot part that claims too much, comes too soon or disagrees with its siblings is not kept.
@Suite struct PackLogSnapshotTests {
    typealias Folder = PackLogTests.Folder

    /// A clock the test moves.
    final class ManualClock: WallClock {
        let now = Mutex<UInt64>(1_800_000_000_000)
        func millisecondsSince1970() -> UInt64 { now.withLock { $0 } }
        func advance(hours: Double) { now.withLock { $0 += UInt64(hours * 3_600_000) } }
    }

    static let retention = Duration.seconds(24 * 3_600)
    static let alice = ReplicaID(high: 0xA11C_E, low: 1)
    static let bob = ReplicaID(high: 0xB0B, low: 2)
    static let room = "room"

    /// A pack of `author`'s, `size` bytes, unique by `id`.
    static func pack(_ id: UInt64, by author: ReplicaID, size: Int = 1_000) -> PackLog.Push {
        var bytes = [UInt8](repeating: UInt8(id % 251), count: size)
        bytes[0] = UInt8(id >> 8)
        bytes[1] = UInt8(id & 0xFF)
        return PackLog.Push(room: room, pack: PackID(of: bytes), bytes: bytes, author: author)
    }

    static func cover(
        _ id: UInt8,
        position: UInt64,
        part: UInt32 = 0,
        parts: UInt32 = 1,
        seq: UInt64 = 5
    ) -> SnapshotCover {
        var cut = Cut()
        cut.include(ChangeID(replica: alice, seq: seq), Stamp(rawValue: 7))
        return SnapshotCover(
            id: SnapshotID(bytes: [UInt8](repeating: id, count: 16))!,
            position: position,
            cut: cut,
            part: part,
            parts: parts
        )
    }

    /// A part of the snapshot `cover`, signed (as far as the log knows) by `author`.
    static func part(
        _ cover: SnapshotCover,
        by author: ReplicaID = alice,
        size: Int = 500,
        salt: UInt8 = 0
    ) -> PackLog.Push {
        var bytes = cover.id.bytes + [UInt8(cover.part), salt] + [UInt8](repeating: 0x5A, count: size)
        bytes[0] ^= 0
        return PackLog.Push(room: room, pack: PackID(of: bytes), bytes: bytes, author: author, snapshot: cover)
    }

    static func log(_ folder: Folder, _ clock: ManualClock) throws -> PackLog {
        try PackLog(path: folder.file, wallClock: clock)
    }

    @Test(arguments: StoreKind.allCases) func aWholeSnapshotCheckedByItsOnlyAuthorLetsThePacksItStandsForGo(
        _ kind: StoreKind
    ) async throws {
        let clock = ManualClock()
        try await TestStore.with(kind, wallClock: clock) { (log: any PackStore) async throws in
            _ = try await log.append((1...3 as ClosedRange<UInt64>).map { Self.pack($0, by: Self.alice) })
            let first = Self.cover(1, position: 3, part: 0, parts: 2)
            let second = Self.cover(1, position: 3, part: 1, parts: 2)
            #expect(try await log.append([Self.part(first)]) == [.stored(4)])
            #expect(try await log.compact(retention: Self.retention).isEmpty, "half a snapshot stands for nothing")
            #expect(try await log.append([Self.part(second)]) == [.stored(5)])
            let done = try await log.compact(retention: Self.retention)
            #expect(done == [.init(room: Self.room, floor: 3, packsDropped: 3, bytesDropped: 3_000)])
            #expect(try await log.floor(room: Self.room) == .init(position: 3, snapshot: first.id, covers: 3))
            #expect(try await log.packs(room: Self.room, after: 0).map(\.serverSeq) == [4, 5])
            #expect(try await log.bytes(room: Self.room) == UInt64(Self.part(first).bytes.count * 2))
            #expect(try await log.snapshotParts(room: Self.room, snapshot: first.id).map(\.serverSeq) == [4, 5])
            #expect(try await log.compact(retention: Self.retention).isEmpty, "nothing more to drop")
            // The room goes on from its head, and a pack stored again after compaction keeps its old position.
            #expect(try await log.append([Self.pack(9, by: Self.alice)]) == [.stored(6)])
            #expect(try await log.head(room: Self.room) == 6)
            let progress = try await log.progress(room: Self.room, after: 5)
            #expect(progress.head == 6 && progress.bytesAfter == 1_000)
        }
    }

    @Test(arguments: StoreKind.allCases) func packsStayUntilEveryAuthorPresentHasCheckedTheSnapshot(
        _ kind: StoreKind
    ) async throws {
        let clock = ManualClock()
        try await TestStore.with(kind, wallClock: clock) { (log: any PackStore) async throws in
            _ = try await log.append([
                Self.pack(1, by: Self.alice), Self.pack(2, by: Self.bob), Self.pack(3, by: Self.alice),
            ])
            let cover = Self.cover(2, position: 3)
            _ = try await log.append([Self.part(cover)])
            #expect(try await log.compact(retention: Self.retention).isEmpty, "Bob has not checked it")
            // A check by a replica that never wrote here, or of a snapshot the room does not hold, counts for nothing.
            let stranger = ReplicaID(high: 5, low: 5)
            #expect(try await log.recordCheck(room: Self.room, snapshot: cover.id, signer: stranger) == false)
            let unknown = SnapshotID(bytes: [UInt8](repeating: 9, count: 16))!
            #expect(try await log.recordCheck(room: Self.room, snapshot: unknown, signer: Self.bob) == false)
            #expect(try await log.compact(retention: Self.retention).isEmpty)
            #expect(try await log.recordCheck(room: Self.room, snapshot: cover.id, signer: Self.bob))
            #expect(try await log.compact(retention: Self.retention).map(\.floor) == [3])
        }
    }

    @Test(arguments: StoreKind.allCases) func anAuthorAwayLongerThanTheRetentionNoLongerHoldsPacksBack(
        _ kind: StoreKind
    ) async throws {
        let clock = ManualClock()
        try await TestStore.with(kind, wallClock: clock) { (log: any PackStore) async throws in
            _ = try await log.append([Self.pack(1, by: Self.bob)])
            clock.advance(hours: 30)
            _ = try await log.append([Self.pack(2, by: Self.alice), Self.pack(3, by: Self.alice)])
            _ = try await log.append([Self.part(Self.cover(3, position: 3))])
            #expect(
                try await log.compact(retention: Self.retention).map(\.floor) == [3],
                "Bob was last seen 30 hours ago"
            )
        }
    }

    /// Two authors send snapshots at once: both are kept whole, and the packs go on the one every present
    /// author has checked, whichever came first.
    @Test(arguments: StoreKind.allCases) func twoSnapshotsSentAtOnceAreBothKeptAndTheCheckedOneCounts(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind, wallClock: ManualClock()) { (log: any PackStore) async throws in
            _ = try await log.append([
                Self.pack(1, by: Self.alice), Self.pack(2, by: Self.bob), Self.pack(3, by: Self.bob),
            ])
            let alices = Self.cover(1, position: 2, parts: 2)
            let bobs = Self.cover(2, position: 3, parts: 2)
            let interleaved = [
                Self.part(alices), Self.part(bobs, by: Self.bob),
                Self.part(Self.cover(2, position: 3, part: 1, parts: 2), by: Self.bob),
                Self.part(Self.cover(1, position: 2, part: 1, parts: 2)),
            ]
            #expect(try await log.append(interleaved).allSatisfy { $0.position != nil })
            // Each author has checked only its own: nothing goes.
            #expect(try await log.compact(retention: Self.retention).isEmpty)
            #expect(try await log.recordCheck(room: Self.room, snapshot: alices.id, signer: Self.bob))
            #expect(try await log.compact(retention: Self.retention).map(\.floor) == [2])
            #expect(try await log.floor(room: Self.room)?.snapshot == alices.id)
            #expect(try await log.recordCheck(room: Self.room, snapshot: bobs.id, signer: Self.alice))
            #expect(try await log.compact(retention: Self.retention).map(\.floor) == [3])
            #expect(try await log.floor(room: Self.room)?.snapshot == bobs.id)
            #expect(try await log.snapshotParts(room: Self.room, snapshot: alices.id).isEmpty, "the older one went")
        }
    }

    @Test(arguments: StoreKind.allCases) func aDevicePresentAndBehindKeepsThePacksItHasNotReceived(
        _ kind: StoreKind
    ) async throws {
        let clock = ManualClock()
        try await TestStore.with(kind, wallClock: clock) { (log: any PackStore) async throws in
            let reader = ReplicaID(high: 7, low: 7)
            let gone = ReplicaID(high: 8, low: 8)
            _ = try await log.append(
                (1...4 as ClosedRange<UInt64>).map { Self.pack($0, by: Self.alice) },
                watermarks: [.init(room: Self.room, device: gone, position: 1)]
            )
            clock.advance(hours: 25)
            try await log.setWatermark(room: Self.room, device: reader, to: 2)
            _ = try await log.append([Self.part(Self.cover(4, position: 4))])
            #expect(try await log.compact(retention: Self.retention).map(\.floor) == [2])
            #expect(try await log.floor(room: Self.room)?.covers == 4, "the floor's snapshot still stands for 4")
            #expect(try await log.compact(retention: Self.retention).isEmpty, "the reader has not moved: nothing to do")
            try await log.setWatermark(room: Self.room, device: reader, to: 3)
            #expect(
                try await log.compact(retention: Self.retention).map(\.floor) == [3],
                "the floor follows the reader"
            )
            try await log.setWatermark(room: Self.room, device: reader, to: 5)
            let done = try await log.compact(retention: Self.retention)
            #expect(
                done.map(\.floor) == [4] && done.map(\.packsDropped) == [1],
                "no further than the snapshot stands for"
            )
            #expect(try await log.floor(room: Self.room)?.position == 4)
            #expect(try await log.compact(retention: Self.retention).isEmpty, "the floor is where its snapshot stands")
            #expect(try await log.packs(room: Self.room, after: 0).map(\.serverSeq) == [5])
        }
    }

    @Test(arguments: StoreKind.allCases) func aDeviceThatChecksHoldsWhatTheSnapshotStandsFor(
        _ kind: StoreKind
    ) async throws {
        let clock = ManualClock()
        try await TestStore.with(kind, wallClock: clock) { (log: any PackStore) async throws in
            let bobsDevice = ReplicaID(high: 7, low: 7)
            clock.advance(hours: 25)
            _ = try await log.append(
                [Self.pack(1, by: Self.alice), Self.pack(2, by: Self.bob), Self.pack(3, by: Self.alice)],
                watermarks: [.init(room: Self.room, device: bobsDevice, position: 1)]
            )
            let cover = Self.cover(2, position: 3)
            _ = try await log.append([Self.part(cover)])
            // A check that does not count says nothing of the device either.
            let stranger = ReplicaID(high: 5, low: 5)
            #expect(
                try await log.recordCheck(room: Self.room, snapshot: cover.id, signer: stranger, device: bobsDevice)
                    == false
            )
            #expect(try await log.watermark(room: Self.room, device: bobsDevice) == 1)
            // Bob's device, still connected since it subscribed after 1, checks: it holds through 3.
            #expect(
                try await log.recordCheck(room: Self.room, snapshot: cover.id, signer: Self.bob, device: bobsDevice)
            )
            #expect(try await log.watermark(room: Self.room, device: bobsDevice) == 3)
            #expect(try await log.compact(retention: Self.retention).map(\.floor) == [3])
        }
    }

    @Test(arguments: StoreKind.allCases) func partsThatClaimTooMuchComeTooSoonOrDisagreeAreNotKept(
        _ kind: StoreKind
    ) async throws {
        let clock = ManualClock()
        try await TestStore.with(kind, wallClock: clock) { (log: any PackStore) async throws in
            _ = try await log.append((1...3 as ClosedRange<UInt64>).map { Self.pack($0, by: Self.alice) })
            let refused = { (push: PackLog.Push) async throws -> String? in
                if case .snapshotRefused(let why) = try await log.append([push])[0] { return why }
                return nil
            }
            #expect(try await refused(Self.part(Self.cover(1, position: 4))) != nil, "a position past the head")
            #expect(try await log.append([Self.part(Self.cover(1, position: 3, parts: 2))]) == [.stored(4)])
            #expect(try await refused(Self.part(Self.cover(1, position: 2, part: 1, parts: 2))) != nil, "another claim")
            #expect(try await refused(Self.part(Self.cover(1, position: 3, part: 1, parts: 2), by: Self.bob)) != nil)
            #expect(try await refused(Self.part(Self.cover(1, position: 3, parts: 2), salt: 1)) != nil, "a part held")
            #expect(try await log.append([Self.part(Self.cover(1, position: 3, part: 1, parts: 2))]) == [.stored(5)])
            #expect(
                try await refused(Self.part(Self.cover(1, position: 3, part: 1, parts: 2), salt: 2)) != nil,
                "whole"
            )
            #expect(try await refused(Self.part(Self.cover(2, position: 3))) != nil, "no more than the newest")
            _ = try await log.append([Self.pack(10, by: Self.alice, size: 10_000)])
            #expect(try await refused(Self.part(Self.cover(3, position: 6))) != nil, "too soon: 10 kB since")
            _ = try await log.append(
                (11...18 as ClosedRange<UInt64>).map { Self.pack($0, by: Self.alice, size: 10_000) }
            )
            // Four unfinished snapshots at most.
            for id in 4...7 as ClosedRange<UInt8> {
                #expect(
                    try await log.append([Self.part(Self.cover(id, position: 14, parts: 2))]).first?.position != nil
                )
            }
            #expect(
                try await refused(Self.part(Self.cover(8, position: 14, parts: 2))) != nil,
                "a fifth unfinished one"
            )
            #expect(try await log.packs(room: Self.room, after: 0).count == 3 + 2 + 9 + 4, "nothing refused was stored")
        }
    }

    @Test func aLogThatHeldPacksBeforeSnapshotsWaitsAWholeRetention() async throws {
        let folder = try Folder()
        let clock = ManualClock()
        let log = try Self.log(folder, clock)
        try await log.pool.write { db in
            try db.execute(
                sql: "UPDATE compaction_epoch SET started_at = ?",
                arguments: [Int64(clock.millisecondsSince1970())]
            )
        }
        _ = try await log.append([Self.pack(1, by: Self.alice), Self.part(Self.cover(1, position: 1))])
        #expect(try await log.compact(retention: Self.retention).isEmpty)
        clock.advance(hours: 23)
        #expect(try await log.compact(retention: Self.retention).isEmpty)
        clock.advance(hours: 2)
        _ = try await log.append([Self.pack(2, by: Self.alice)])
        #expect(try await log.compact(retention: Self.retention).map(\.floor) == [1])
    }

    @Test(arguments: StoreKind.allCases) func aCatchUpAfterARebaseLeavesOutTheSnapshotsParts(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind, wallClock: ManualClock()) { (log: any PackStore) async throws in
            _ = try await log.append((1...3 as ClosedRange<UInt64>).map { Self.pack($0, by: Self.alice) })
            let cover = Self.cover(1, position: 3)
            _ = try await log.append([Self.pack(4, by: Self.alice), Self.part(cover), Self.pack(5, by: Self.alice)])
            var reads = try await log.catchUp(
                [.init(room: Self.room, after: 3, withProgress: false, skipping: cover.id)],
                maximumBytes: 1 << 20,
                allocator: ByteBufferAllocator()
            )
            let taken = reads[0].frame.take()
            var frame = try #require(taken)
            let decoded = try SyncCodec.decodeServer(Array(frame.finish(head: 6).readableBytesView))
            guard case .packs(_, let packs, _) = decoded else { throw WireError.malformed("frame") }
            #expect(packs.map(\.serverSeq) == [4, 6])
        }
    }
}
