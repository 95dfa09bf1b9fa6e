import InkwellStore
import InkwellSync
import Testing

@Suite struct OutboxTests {
    @Test(arguments: StoreKind.allCases)
    func queuedChangesComeOutInOrderUntilAcknowledged(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1), change(a, 2), change(a, 3)])
        try store.enqueue([change(a, 2).id, change(a, 1).id, change(a, 3).id, change(a, 2).id])
        #expect(try store.outbox().map(\.id.seq) == [2, 1, 3])
        #expect(try store.outbox(limit: 2).map(\.id.seq) == [2, 1])
        try store.acknowledge([change(a, 2).id, change(b, 9).id])
        #expect(try store.outbox().map(\.id.seq) == [1, 3])
        try store.acknowledge([change(a, 2).id])
        #expect(try store.outbox().map(\.id.seq) == [1, 3])
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func appendingWithEnqueueQueuesOnlyTheNewChanges(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1)])
        try store.append([change(a, 1), change(a, 2, payload: [1, 2, 3])], enqueue: true)
        #expect(try store.outbox() == [change(a, 2, payload: [1, 2, 3])])
        #expect(try store.outboxSize() == OutboxSize(changes: 1, bytes: 3))
        try store.acknowledge([change(a, 2).id])
        #expect(try store.outboxSize() == OutboxSize(changes: 0, bytes: 0))
    }

    @Test(arguments: StoreKind.allCases)
    func queuingAnUnknownChangeQueuesNothing(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1)])
        #expect(throws: StoreError.unknownChange(change(b, 1).id)) {
            try store.enqueue([change(a, 1).id, change(b, 1).id])
        }
        #expect(try store.outbox().isEmpty)
    }

    @Test func theOutboxSurvivesAReopen() throws {
        let opened = try StoreKind.onDisk.open()
        try opened.store.append([change(a, 1), change(a, 2), change(a, 3)], enqueue: true)
        try opened.store.acknowledge([change(a, 1).id])
        let reopened = try opened.reopened()
        #expect(try reopened.store.outbox().map(\.id.seq) == [2, 3])
        try reopened.store.checkInvariants()
    }
}
