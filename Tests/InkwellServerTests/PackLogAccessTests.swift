import Foundation
import InkwellWire
import Testing

@testable import InkwellServer

/// Rooms' capabilities in the pack log: hashes only, registered once, rotated by the admin, and rooms
/// that held packs before capabilities stay open.
@Suite struct PackLogAccessTests {
    typealias Folder = PackLogTests.Folder

    static func hashes() -> (RoomAccess.Hashes, admin: Capability) {
        let admin = Capability.mint(.admin)
        return (
            RoomAccess.Hashes(admin: admin.hash, edit: Capability.mint(.edit).hash, view: Capability.mint(.view).hash),
            admin
        )
    }

    @Test(arguments: StoreKind.allCases) func registrationIsIdempotentForItsAdminAndTakenForAnyOther(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            let (mine, _) = Self.hashes()
            #expect(try await log.access(room: "room") == nil)
            #expect(try await log.register(room: "room", hashes: mine) == .created)
            #expect(try await log.access(room: "room") == .guarded(mine))
            #expect(try await log.register(room: "room", hashes: mine) == .alreadyRegistered)
            #expect(try await log.register(room: "room", hashes: Self.hashes().0) == .taken)
            #expect(try await log.access(room: "room") == .guarded(mine), "a taken id keeps its first admin")
        }
    }

    @Test(arguments: StoreKind.allCases) func aRoomWithPacksAndNoCapabilitiesIsOpenAndCannotBeClaimed(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            _ = try await log.append([PackLogTests.push("legacy", 1)])
            #expect(try await log.access(room: "legacy") == .open)
            #expect(try await log.register(room: "legacy", hashes: Self.hashes().0) == .taken)
            #expect(try await log.access(room: "legacy") == .open)
        }
    }

    @Test(arguments: StoreKind.allCases) func onlyTheAdminRotatesAndTheCacheNeverServesTheOldHashes(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            let (hashes, admin) = Self.hashes()
            _ = try await log.register(room: "room", hashes: hashes)
            _ = try await log.access(room: "room")  // cached
            let newView = Capability.mint(.view).hash
            #expect(
                try await log.rotate(
                    room: "room",
                    adminHash: Capability.mint(.admin).hash,
                    editHash: [],
                    viewHash: newView
                )
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
            #expect(
                try await log.rotate(room: "open", adminHash: admin.hash, editHash: newView, viewHash: []) == .refused
            )
        }
    }
}
