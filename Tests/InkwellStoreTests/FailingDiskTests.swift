import CInkwellCrashVFS
import Foundation
import InkwellStore
import InkwellSync
import InkwellTesting
import Testing

/// The store on a disk that fills up or fails, through the crash VFS (CInkwellCrashVFS.h): a write the
/// disk refuses throws and stores nothing, what was stored before stays readable, and once the disk is
/// healthy again the same store takes writes and keeps its invariants, before and after it is reopened.
@Suite struct FailingDiskTests {
    /// A payload of `bytes` bytes for change `seq`: big enough that a few fill the WAL past its size.
    static func bulky(_ seq: UInt64, bytes: Int = 16 << 10) -> StoredChange {
        change(a, seq, payload: (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seq)) })
    }

    @Test(arguments: [INKWELL_DISK_FULL, INKWELL_DISK_FAILING])
    func aWriteTheDiskRefusesStoresNothingAndTheStoreRecovers(_ fault: inkwell_disk_state) throws {
        try #require(inkwell_crash_vfs_register() == 0)
        let directory = try TemporaryDirectory("failing-disk-store")
        let folder = directory.url.resolvingSymlinksInPath().path
        try #require(inkwell_crash_vfs_arm(folder) == 0)
        defer { inkwell_crash_vfs_disarm(folder) }

        var store: Store? = try Store(directory: folder)
        try store!.append([Self.bulky(1)], enqueue: true)
        inkwell_crash_vfs_set_disk(folder, Int32(fault.rawValue))
        // Each commit grows the WAL (it is checkpointed only after 1,000 pages), so the disk refuses it.
        #expect(throws: (any Error).self) { try store!.append([Self.bulky(2)], enqueue: true) }
        #expect(throws: (any Error).self) { try store!.append([Self.bulky(2), Self.bulky(3)], enqueue: true) }
        if fault == INKWELL_DISK_FULL {
            #expect(try store!.change(ChangeID(replica: a, seq: 1)) == Self.bulky(1), "a full disk still reads")
        }

        inkwell_crash_vfs_set_disk(folder, Int32(INKWELL_DISK_HEALTHY.rawValue))
        #expect(try store!.frontier(room: "room").vector == VersionVector([a: 1]), "nothing refused was stored")
        try store!.append([Self.bulky(2)], enqueue: true)
        try store!.checkInvariants()
        #expect(try store!.outbox(limit: 10).map(\.id.seq) == [1, 2])
        store = nil

        let reopened = try Store(directory: folder)
        try reopened.checkInvariants()
        #expect(try reopened.changes(room: "room", document: "board") == [Self.bulky(1), Self.bulky(2)])
    }
}
