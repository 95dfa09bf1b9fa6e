import Foundation
import InkwellBoard
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellStore

/// The cut of a room snapshot taken in place of packs (``Store/standFor(_:room:own:)``): the frontier moves
/// over the changes it left out, the writer folds what follows, and a change it left out that comes later
/// is still stored.
@Suite struct CoverTests {
    /// A:1–3 and A:6–8 held; A:4 and A:5 left out by a snapshot standing for A:1–7.
    static func storeWithAGap(_ kind: StoreKind) throws -> OpenedStore {
        let opened = try kind.open()
        try opened.store.append([1, 2, 3, 6, 7, 8].map { boardChange(a, $0) })
        #expect(try opened.store.frontier(room: "room").vector[a] == 3)
        try opened.store.standFor(Cut([a: (7, boardChange(a, 7).stamp)]), room: "room", own: nil)
        return opened
    }

    @Test(arguments: StoreKind.allCases)
    func theFrontierMovesOverWhatTheSnapshotLeftOutAndTheRowsAfterIt(kind: StoreKind) throws {
        let opened = try Self.storeWithAGap(kind)
        let store = opened.store
        #expect(try store.frontier(room: "room") == Cut([a: (8, boardChange(a, 8).stamp)]))
        #expect(try store.cover(room: "room")[a] == 7)
        try store.checkInvariants()
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        #expect(try CompactionTests.rowCount(store) == 0)
        #expect(try store.changes(room: "room", document: "board").map(\.id.seq) == [1, 2, 3, 6, 7, 8])
        try store.checkInvariants()
        if kind == .onDisk {
            let reopened = try opened.reopened()
            #expect(try reopened.store.cover(room: "room")[a] == 7)
            try reopened.store.checkInvariants()
        }
    }

    /// A snapshot taken on its author's word may leave out a change that still matters; when its own
    /// author pushes it again, it is stored, opened and folded in.
    @Test(arguments: StoreKind.allCases)
    func aChangeTheSnapshotLeftOutThatComesLaterIsStoredAndTakenIn(kind: StoreKind) throws {
        let store = try Self.storeWithAGap(kind).store
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        let late = boardChange(a, 4)
        #expect(try store.append([late]) == AppendResult(inserted: [late.id], duplicates: []))
        #expect(try store.append([late]) == AppendResult(inserted: [], duplicates: [late.id]))
        try store.checkInvariants()
        let all = [1, 2, 3, 4, 6, 7, 8].map { boardChange(a, $0) }
        #expect(
            try coldOpenBoard(store, room: "room", document: "board").canonicalHash
                == board("board", of: all).canonicalHash
        )
        try store.append([boardChange(a, 9)])
        #expect(try store.snapshotIfNeeded(room: "room", document: "board", policy: .init(tailThreshold: 1)))
        #expect(try CompactionTests.rowCount(store) == 0)
        #expect(try store.changes(room: "room", document: "board").map(\.id.seq) == [1, 2, 3, 4, 6, 7, 8, 9])
        try store.checkInvariants()
    }

    /// The cut's stamp for a change the store does not hold is only the snapshot's word: the frontier takes
    /// the latest stamp held, so a stamp set too high cannot refuse the timeline's honest changes to come.
    @Test func aFrontierMovedPastChangesNotHeldTakesTheLatestStampHeld() throws {
        let store = try Store.inMemory()
        try store.append((1...3).map { boardChange(a, $0) })
        try store.standFor(Cut([a: (5, Stamp(wallMilliseconds: 1 << 40))]), room: "room", own: nil)
        #expect(try store.frontier(room: "room") == Cut([a: (5, boardChange(a, 3).stamp)]))
        try store.append([boardChange(a, 6)])
        #expect(try store.frontier(room: "room").vector[a] == 6)
        try store.checkInvariants()
    }

    @Test func theDevicesOwnTimelineAndAnotherRoomsAreNotStoodFor() throws {
        let store = try Store.inMemory()
        try store.append((1...3).map { boardChange(a, $0) } + [boardChange(b, 1, room: "elsewhere")])
        try store.standFor(Cut([a: (9, .zero), b: (4, .zero), c: (2, .zero)]), room: "room", own: a)
        #expect(try store.frontier(room: "room").vector == VersionVector([a: 3, c: 2]))
        #expect(try store.frontier(room: "elsewhere").vector == VersionVector([b: 1]))
        #expect(try store.lastSeq(of: a) == 3)
        try store.checkInvariants()
    }

    /// A cut no further than the frontier changes nothing but the record of it.
    @Test func aCutBehindTheFrontierLeavesItWhereItIs() throws {
        let store = try Store.inMemory()
        try store.append((1...5).map { boardChange(a, $0) })
        let before = try store.frontier(room: "room")
        try store.standFor(Cut([a: (2, boardChange(a, 2).stamp)]), room: "room", own: nil)
        #expect(try store.frontier(room: "room") == before)
        #expect(try store.cover(room: "room")[a] == 2)
        try store.checkInvariants()
    }
}
