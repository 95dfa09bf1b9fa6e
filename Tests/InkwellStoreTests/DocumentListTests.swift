import InkwellStore
import InkwellSync
import InkwellTesting
import Testing

@Suite struct DocumentListTests {
    /// Each document with a change is listed once, in byte order, and only for its own room.
    @Test(arguments: StoreKind.allCases)
    func aRoomListsTheDocumentsItHoldsChangesOf(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        #expect(try store.documents(room: "room").isEmpty)
        try store.append([
            change(a, 1, board: "2026-11-25"), change(b, 1, board: "2026-11-24"), change(a, 2, board: "2026-11-25"),
            change(c, 1, board: "\u{E9}"), change(c, 2, board: "Z"), change(c, 3, room: "elsewhere", board: "other"),
        ])
        #expect(try store.documents(room: "room") == ["2026-11-24", "2026-11-25", "Z", "\u{E9}"])
        #expect(try store.documents(room: "elsewhere") == ["other"])
        #expect(try store.documents(room: "nowhere").isEmpty)
    }
}
