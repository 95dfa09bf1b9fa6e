import Foundation
import GRDB
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
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

    /// Each room's replica is owned by a key the store keeps: the replica is the key's, and the key survives
    /// reopening, so packs signed after a restart verify as the same author.
    @Test func eachReplicaHasAKeyThatOwnsIt() throws {
        let directory = try TemporaryDirectory()
        let replica = try Store(path: directory.file).replica(for: "room")
        let key = try #require(try Store(path: directory.file).authorKey(of: replica))
        #expect(key.replica == replica)
        #expect(try Store(path: directory.file).authorKey(of: ReplicaID(high: 1, low: 2)) == nil)
    }

    /// A store from before replicas had keys: the room's keyless replica is replaced by a keyed one, since
    /// nothing could sign its packs.
    @Test func aReplicaWithoutAKeyIsReplaced() throws {
        let directory = try TemporaryDirectory()
        _ = try Store(path: directory.file)
        let keyless = ReplicaID(high: 0xBEEF, low: 1)
        let queue = try DatabaseQueue(path: directory.file)
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO room_replica (room, replica) VALUES (?, ?)",
                arguments: ["room", Data(keyless.bytes)]
            )
        }
        try queue.close()
        let store = try Store(path: directory.file)
        let replica = try store.replica(for: "room")
        #expect(replica != keyless)
        #expect(try store.authorKey(of: replica)?.replica == replica)
        #expect(try store.replica(for: "room") == replica)
    }
}
