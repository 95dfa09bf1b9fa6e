import Foundation
import InkwellWire
import Testing

@testable import InkwellServer

/// Rooms' capabilities in the pack log: hashes only, registered once, rotated by the admin, and rooms
/// that held packs before capabilities stay open.
@Suite struct PackLogAccessTests {
    static func hashes() -> (RoomAccess.Hashes, admin: Capability) {
        let admin = Capability.mint(.admin)
        return (
            RoomAccess.Hashes(admin: admin.hash, edit: Capability.mint(.edit).hash, view: Capability.mint(.view).hash),
            admin
        )
    }

    @Test func registrationIsIdempotentForItsAdminAndTakenForAnyOther() async throws {
        let folder = try PackLogTests.Folder()
        let log = try PackLog(path: folder.file)
        let (mine, _) = Self.hashes()
        #expect(try await log.access(room: "room") == nil)
        #expect(try await log.register(room: "room", hashes: mine) == .created)
        #expect(try await log.access(room: "room") == .guarded(mine))
        #expect(try await log.register(room: "room", hashes: mine) == .alreadyRegistered)
        #expect(try await log.register(room: "room", hashes: Self.hashes().0) == .taken)
        #expect(try await log.access(room: "room") == .guarded(mine), "a taken id keeps its first admin")
    }

    @Test func aRoomWithPacksAndNoCapabilitiesIsOpenAndCannotBeClaimed() async throws {
        let folder = try PackLogTests.Folder()
        let log = try PackLog(path: folder.file)
        _ = try await log.append([PackLogTests.push("legacy", 1)])
        #expect(try await log.access(room: "legacy") == .open)
        #expect(try await log.register(room: "legacy", hashes: Self.hashes().0) == .taken)
        #expect(try await log.access(room: "legacy") == .open)
    }

    @Test func onlyTheAdminRotatesAndTheCacheNeverServesTheOldHashes() async throws {
        let folder = try PackLogTests.Folder()
        let log = try PackLog(path: folder.file)
        let (hashes, admin) = Self.hashes()
        _ = try await log.register(room: "room", hashes: hashes)
        _ = try await log.access(room: "room")  // cached
        let newView = Capability.mint(.view).hash
        #expect(
            try await log.rotate(room: "room", adminHash: Capability.mint(.admin).hash, editHash: [], viewHash: newView)
                == .refused
        )
        #expect(
            try await log.rotate(room: "room", adminHash: admin.hash, editHash: [], viewHash: newView)
                == .rotated(replaced: [hashes.view])
        )
        guard case .guarded(let now) = try await log.access(room: "room") else {
            Issue.record("the room is no longer guarded")
            return
        }
        #expect(now.view == newView && now.edit == hashes.edit && now.admin == hashes.admin)
        // A fresh log over the same file reads the same: it was committed, not only cached.
        let reopened = try PackLog(path: folder.file)
        #expect(try await reopened.access(room: "room") == .guarded(now))
        #expect(try await log.rotate(room: "open", adminHash: admin.hash, editHash: newView, viewHash: []) == .refused)
    }
}
