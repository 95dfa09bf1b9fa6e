import Foundation
import GRDB
import InkwellSync
import InkwellTesting
import Testing

@testable import InkwellStore

/// The store's index of documents: what an app lists without reading changes.
@Suite struct DocumentIndexTests {
    @Test(arguments: StoreKind.allCases) func documentsAreListedByRoomTypeAndNameRange(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        var seqs: [ReplicaID: UInt64] = [:]
        func typed(_ replica: ReplicaID, room: String, document: String, type: DocumentType) -> StoredChange {
            seqs[replica, default: 0] += 1
            let seq = seqs[replica]!
            return StoredChange(
                id: ChangeID(replica: replica, seq: seq),
                stamp: Stamp(wallMilliseconds: 1_000 + seq),
                room: room,
                document: document,
                type: type,
                schemaVersion: 1,
                payload: Array("\(document):\(seq)".utf8)
            )
        }
        try store.append([
            typed(a, room: "log", document: "2026-11-24", type: "model"),
            typed(a, room: "log", document: "2026-11-25", type: "model"),
            typed(b, room: "log", document: "2026-11-25", type: "model"),
            typed(a, room: "log", document: "2026-12-01", type: "model"),
            typed(a, room: "log", document: "main", type: .unnamed),
            typed(a, room: "other", document: "2026-11-25", type: "model"),
        ])
        #expect(try store.documents(room: "log") == ["2026-11-24", "2026-11-25", "2026-12-01", "main"])
        #expect(try store.documents(room: "log", type: .unnamed) == ["main"])
        #expect(
            try store.documents(room: "log", type: "model", names: "2026-11-25"..."2026-11-30") == ["2026-11-25"]
        )
        #expect(try store.documents(room: "nowhere").isEmpty)
        let stored = try #require(try store.changes(room: "log", document: "main").first)
        #expect(stored.type == .unnamed, "a change keeps its type")
        #expect(try store.changes(room: "log", document: "2026-11-25").allSatisfy { $0.type == "model" })
    }

    /// A store written before types were named: its changes are the board's, and the index lists
    /// their documents after the migration.
    @Test func aStoreFromBeforeTypesListsItsBoardsAfterMigrating() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.file)
        try StoreSchema.migrator.migrate(queue, upTo: "v3")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO change (replica, seq, stamp, room, board, schema_version, payload, entities)
                    VALUES (?, 1, ?, 'room', 'main', 1, ?, ?)
                    """,
                arguments: [SQLValues.replica(a), SQLValues.stamp(Stamp(wallMilliseconds: 5)), Data([1]), Data()]
            )
        }
        try queue.close()
        let store = try Store(path: directory.file)
        #expect(try store.documents(room: "room", type: .unnamed) == ["main"])
        let change = try #require(try store.changes(room: "room", document: "main").first)
        #expect(change.type == .unnamed)
        #expect(change.payload == [1])
    }
}
