import InkwellStore
import InkwellSync
import InkwellTesting
import Testing

@Suite struct RoomReplicaTests {
    @Test(arguments: StoreKind.allCases)
    func eachRoomHasItsOwnStableReplica(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let first = try store.replica(for: "room-1")
        #expect(try store.replica(for: "room-1") == first)
        let second = try store.replica(for: "room-2")
        #expect(second != first)
        #expect(first != store.replica)
        #expect(throws: StoreError.self) { try store.replica(for: "") }
    }

    @Test func roomReplicasSurviveReopening() throws {
        let directory = try TemporaryDirectory()
        let before = try Store(path: directory.file).replica(for: "room")
        #expect(try Store(path: directory.file).replica(for: "room") == before)
    }
}
