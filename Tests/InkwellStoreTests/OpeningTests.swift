import Foundation
import InkwellStore
import InkwellSync
import InkwellTesting
import Testing

@Suite struct OpeningTests {
    @Test func theWriterRunsInWALModeWithFullSynchronousCommits() throws {
        let opened = try StoreKind.onDisk.open()
        let store = opened.store
        let settings = try store.writerSettings()
        #expect(settings.journalMode == "wal")
        #expect(settings.synchronous == 2, "2 is FULL; GRDB's pool sets NORMAL (1) when it switches WAL on")
        #expect(settings.foreignKeys)
    }

    @Test func inMemoryStoresCheckForeignKeysToo() throws {
        #expect(try StoreKind.inMemory.open().store.writerSettings().foreignKeys)
    }

    @Test func everythingSurvivesAReopen() throws {
        let opened = try StoreKind.onDisk.open()
        let replica = opened.store.replica
        try opened.store.append([change(a, 1), change(a, 2)])
        let reopened = try opened.reopened()
        #expect(reopened.store.replica == replica)
        #expect(try reopened.store.changes(room: "room", document: "board") == [change(a, 1), change(a, 2)])
        #expect(try reopened.store.frontier(room: "room").vector == VersionVector([a: 2]))
        try reopened.store.checkInvariants()
    }

    @Test func everyStoreHasItsOwnReplica() throws {
        #expect(try StoreKind.inMemory.open().store.replica != StoreKind.inMemory.open().store.replica)
    }

    @Test func aStoreFromANewerVersionIsRefusedInPlainWordsAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try Store(path: directory.file)
            try store.append([change(a, 1)])
        }
        try markAsWrittenByNewerVersion(directory.file, schema: 10)
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file))
        let error = #expect(throws: StoreError.self) { try Store(path: directory.file) }
        #expect(error == StoreError.newerSchema(found: 10, supported: 9))
        #expect(
            error?.description
                == "this store was written by a newer version of Inkwell (schema 10); this version understands up to 9"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file)) == before)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedWithAStoreError() throws {
        let directory = try TemporaryDirectory()
        try Data("not a database, just text that is long enough to look like a header".utf8)
            .write(to: URL(fileURLWithPath: directory.file))
        #expect(throws: StoreError.self) { try Store(path: directory.file) }
    }

    /// `Store(directory:)` makes the folder it is given and keeps its file there: opened again, it is the
    /// same store.
    @Test func aStoreInADirectoryIsCreatedAndOpenedAgain() throws {
        let parent = try TemporaryDirectory()
        let directory = parent.path("nested/data")
        let replica = try Store(directory: directory).replica
        #expect(FileManager.default.fileExists(atPath: directory + "/" + Store.fileName))
        #expect(try Store(directory: directory).replica == replica)
    }
}
