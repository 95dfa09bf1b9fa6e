import InkwellStore
import InkwellSync
import Testing

@Suite struct NotificationTests {
    @Test(arguments: StoreKind.allCases)
    func oneNotificationNamesEverythingABatchChanged(kind: StoreKind) async throws {
        let opened = try kind.open()
        let store = opened.store
        var notifications = store.notifications().makeAsyncIterator()
        try store.append([
            change(a, 1, entities: ["s1"]), change(a, 2, board: "two", entities: ["s2", "s1"]),
            change(b, 1, room: "other", entities: []),
        ])
        let notification = try #require(await notifications.next())
        #expect(notification.changes == [change(a, 1).id, change(a, 2).id, change(b, 1).id])
        #expect(
            notification.documents == [
                DocumentKey(room: "room", document: "board"), DocumentKey(room: "room", document: "two"),
                DocumentKey(room: "other", document: "board"),
            ]
        )
        #expect(notification.rooms == ["room", "other"])
        #expect(notification.entities == ["s1", "s2"])
    }

    @Test(arguments: StoreKind.allCases)
    func refusedAndEmptyBatchesAreNotAnnounced(kind: StoreKind) async throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1)])
        var notifications = store.notifications().makeAsyncIterator()
        #expect(throws: StoreError.self) { try store.append([change(b, 1), change(a, 1, payload: [0])]) }
        try store.append([change(a, 1)])
        try store.append([])
        try store.append([change(c, 1)])
        let notification = try #require(await notifications.next())
        #expect(notification.changes == [change(c, 1).id])
    }

    @Test(arguments: StoreKind.allCases)
    func everySubscriberHearsEveryCommitInOrder(kind: StoreKind) async throws {
        let opened = try kind.open()
        let store = opened.store
        let first = store.notifications()
        let second = store.notifications()
        for seq in 1...UInt64(5) { try store.append([change(a, seq)]) }
        for stream in [first, second] {
            var seqs: [UInt64] = []
            for await notification in stream {
                seqs += notification.changes.map(\.seq)
                if seqs.count == 5 { break }
            }
            #expect(seqs == [1, 2, 3, 4, 5])
        }
    }
}
