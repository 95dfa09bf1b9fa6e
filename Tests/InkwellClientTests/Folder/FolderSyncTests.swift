import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellClient

/// The shared-folder transport: replicas with folders of their own, which the tests copy between as a
/// sync tool would (whole, cut short, as conflict copies), converge with nothing lost or doubled; and
/// what a folder holds that was not written by the room's replicas is never applied.
@Suite struct FolderSyncTests {
    static let room = "folder-room"
    static let types = DocumentTypes([BoardEdit.self])
    static let quick = FolderSync.Configuration(pollInterval: .milliseconds(20), maximumChangesPerPack: 4)

    /// A replica on a store of its own and a folder of its own, with the board open.
    struct Peer {
        let replica: Replica
        let folder: TemporaryDirectory

        init(_ name: String, credentials: RoomCredentials? = nil) async throws {
            folder = try TemporaryDirectory("folder-\(name)")
            let store = try Store.inMemory()
            if let credentials { try store.setCredentials(credentials, for: FolderSyncTests.room) }
            replica = try await Replica(
                store: store,
                folder: folder.url,
                documentTypes: FolderSyncTests.types,
                configuration: FolderSyncTests.quick
            )
            try await replica.open(BoardState.self, room: FolderSyncTests.room, document: "main")
        }

        func draw(_ count: Int, using random: inout SeededGenerator) async throws {
            for _ in 0..<count { try await replica.edit(randomStroke(using: &random), room: FolderSyncTests.room) }
        }

        func synced() async throws -> BoardState {
            try await replica.waitUntilSynced(timeout: .seconds(30))
            return try #require(await replica.state(of: BoardState.self, room: FolderSyncTests.room, document: "main"))
        }

        /// This replica's own file in its folder.
        var ownFile: URL {
            get throws {
                let replica = try replica.store.replica(for: FolderSyncTests.room)
                return folder.url.appendingPathComponent("\(replica).ink")
            }
        }

        var storedChanges: Int {
            get throws { try replica.store.changes(room: FolderSyncTests.room, notIn: VersionVector()).count }
        }
    }

    /// Copies every `.ink` file of `from` into `to`, as a sync tool does: whole, over what is there.
    static func copyFiles(from: Peer, to: Peer) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: from.folder.url.path)
        where name.hasSuffix(".ink") {
            let bytes = try Data(contentsOf: from.folder.url.appendingPathComponent(name))
            try bytes.write(to: to.folder.url.appendingPathComponent(name))
        }
    }

    @Test func twoReplicasConvergeThroughFoldersCopiedBothWays() async throws {
        var random = SeededGenerator(seed: seed("twoReplicasConvergeThroughFoldersCopiedBothWays"))
        let a = try await Peer("a")
        let b = try await Peer("b")
        try await a.draw(30, using: &random)
        try await b.draw(20, using: &random)
        _ = try await a.synced()
        _ = try await b.synced()
        #expect(try a.replica.changesToUpload() == 0, "written to its own file, so off the outbox")
        try Self.copyFiles(from: a, to: b)
        try Self.copyFiles(from: b, to: a)
        let stateA = try await a.synced()
        let stateB = try await b.synced()
        #expect(stateA.changeCount == 50)
        #expect(stateA.canonicalHash == stateB.canonicalHash)
        // Drawn after the merge: sorts after what came in, and travels back.
        try await b.draw(1, using: &random)
        _ = try await b.synced()
        try Self.copyFiles(from: b, to: a)
        #expect(try await a.synced().canonicalHash == (try await b.synced().canonicalHash))
        #expect(try a.storedChanges == 51 && b.storedChanges == 51)
        await a.replica.stop()
        await b.replica.stop()
    }

    /// A copy cut short (a sync in progress, a crash) and a sync tool's conflict copies of older versions
    /// are read up to their last whole record; once the whole file arrives, every change is there once.
    @Test func aFileCutShortAndConflictCopiesAreReadUpToTheirLastWholeRecord() async throws {
        var random = SeededGenerator(seed: seed("aFileCutShortAndConflictCopiesAreReadUpToTheirLastWholeRecord"))
        let a = try await Peer("cut-a")
        let b = try await Peer("cut-b")
        try await a.draw(40, using: &random)
        let drawn = try await a.synced()
        let source = try a.ownFile
        let bytes = try Data(contentsOf: source)
        let name = source.lastPathComponent
        let stem = String(name.dropLast(4))
        try bytes.prefix(bytes.count / 2).write(to: b.folder.url.appendingPathComponent(name))
        try (bytes.prefix(bytes.count / 3) + Data([0x55, 0x01, 0x02]))
            .write(to: b.folder.url.appendingPathComponent("\(stem) (1).ink"))
        try bytes.prefix(bytes.count - 7).write(
            to: b.folder.url.appendingPathComponent("\(stem) (conflicted copy).ink")
        )
        let partial = try await b.synced()
        #expect(partial.changeCount > 0 && partial.changeCount < 40, "\(partial.changeCount) of 40 read")
        try bytes.write(to: b.folder.url.appendingPathComponent(name))
        let whole = try await b.synced()
        #expect(whole.canonicalHash == drawn.canonicalHash)
        #expect(try b.storedChanges == 40, "each change once, whichever copies held it")
        await a.replica.stop()
        await b.replica.stop()
    }

    /// What no replica of the room signed is not applied: a pack whose changes claim another author, a
    /// pack of another room in this room's file, bytes that are not a pack. Each is kept aside.
    @Test func packsNotSignedByTheirAuthorsForThisRoomAreKeptAsideNeverApplied() async throws {
        var random = SeededGenerator(seed: seed("packsNotSignedByTheirAuthorsForThisRoomAreKeptAsideNeverApplied"))
        let b = try await Peer("forged-b")
        let attacker = AuthorKey(using: &random)
        let victim = ReplicaID(using: &random)
        func change(by replica: ReplicaID) -> [UInt8] {
            ChangeCodec.encode(
                Change(
                    id: ChangeID(replica: replica, seq: 1),
                    stamp: Stamp(wallMilliseconds: 1_000, counter: 0),
                    payload: randomStroke(using: &random)
                )
            )
        }
        let forged = PackCodec.encode(Pack(room: Self.room, changes: [change(by: victim)]), signedBy: attacker)
        let elsewhere = PackCodec.encode(
            Pack(room: "another-room", changes: [change(by: attacker.replica)]),
            signedBy: attacker
        )
        let file =
            FolderLog.fileStart(room: Self.room, replica: attacker.replica)
            + [forged, elsewhere, [1, 2, 3]].flatMap { FolderLog.encode(.pack($0)) }
        try Data(file).write(to: b.folder.url.appendingPathComponent("\(attacker.replica).ink"))
        let pass = try await b.replica.folder!.syncNow()
        #expect(pass.packsRead == 3 && pass.packsRefused == 3 && pass.changesReceived == 0)
        #expect(try await b.synced().changeCount == 0)
        #expect(try b.storedChanges == 0)
        await b.replica.stop()
    }

    /// A write the machine did not finish leaves a torn record at the end of the replica's own file: it
    /// is cut off when the file is next opened, and what is written after reads whole everywhere.
    @Test func aTornTailOfTheOwnFileIsCutOffAndWritingGoesOn() async throws {
        var random = SeededGenerator(seed: seed("aTornTailOfTheOwnFileIsCutOffAndWritingGoesOn"))
        let directory = try TemporaryDirectory("folder-torn-store")
        let path = directory.url.appendingPathComponent("store.sqlite").path
        let folder = try TemporaryDirectory("folder-torn")
        var replica = try await Replica(
            store: try Store(path: path),
            folder: folder.url,
            documentTypes: Self.types,
            configuration: Self.quick
        )
        try await replica.open(BoardState.self, room: Self.room, document: "main")
        for _ in 0..<10 { try await replica.edit(randomStroke(using: &random), room: Self.room) }
        try await replica.waitUntilSynced(timeout: .seconds(30))
        let own = folder.url.appendingPathComponent("\(try replica.store.replica(for: Self.room)).ink")
        await replica.stop()
        let handle = try FileHandle(forWritingTo: own)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(FolderLog.encode(.pack([9, 9, 9, 9, 9])).prefix(10)))
        try handle.close()

        replica = try await Replica(
            store: try Store(path: path),
            folder: folder.url,
            documentTypes: Self.types,
            configuration: Self.quick
        )
        try await replica.open(BoardState.self, room: Self.room, document: "main")
        for _ in 0..<5 { try await replica.edit(randomStroke(using: &random), room: Self.room) }
        try await replica.waitUntilSynced(timeout: .seconds(30))
        let expected = try #require(await replica.state(of: BoardState.self, room: Self.room, document: "main"))
        await replica.stop()
        let bytes = [UInt8](try Data(contentsOf: own))
        let chunk = FolderLogReader.read(bytes[...], at: 0)
        #expect(chunk.stop == .end && chunk.next == bytes.count, "\(chunk.stop)")

        let reader = try await Peer("torn-reader")
        try Data(bytes).write(to: reader.folder.url.appendingPathComponent(own.lastPathComponent))
        let read = try await reader.synced()
        #expect(read.changeCount == 15 && read.canonicalHash == expected.canonicalHash)
        await reader.replica.stop()
    }

    /// A crash after the packs reached the file but before the outbox let go of their changes: the next
    /// start finds them in the file and does not write them again.
    @Test func changesFoundInTheOwnFileAtStartAreNotWrittenTwice() async throws {
        var random = SeededGenerator(seed: seed("changesFoundInTheOwnFileAtStartAreNotWrittenTwice"))
        let store = try Store.inMemory()
        var author = try LocalAuthor(store: store)
        for _ in 0..<3 { _ = try author.record(randomStroke(using: &random), room: Self.room) }
        let queued = try store.outbox()
        #expect(queued.count == 3)
        let replicaID = try store.replica(for: Self.room)
        let key = try #require(try store.authorKey(of: replicaID))
        let pack = PackCodec.encode(Pack(room: Self.room, changes: queued.map(\.payload)), signedBy: key)
        let folder = try TemporaryDirectory("folder-crash")
        let own = folder.url.appendingPathComponent("\(replicaID).ink")
        try Data(FolderLog.fileStart(room: Self.room, replica: replicaID) + FolderLog.encode(.pack(pack))).write(
            to: own
        )

        let sync = try FolderSync(store: store, directory: folder.url, configuration: Self.quick)
        try await sync.join(Self.room)
        #expect(try store.outbox().isEmpty, "found in the file, so off the outbox")
        let pass = try await sync.syncNow()
        #expect(pass.packsWritten == 0)
        let bytes = [UInt8](try Data(contentsOf: own))
        #expect(FolderLogReader.read(bytes[...], at: 0).entries.count == 2, "the header and the one pack")
        await sync.stop()
    }

    /// Looks take turns: one that finds nothing new returns only once a look under way has handed over
    /// what it read, so "synced" never comes before the changes are applied.
    @Test func aLookThatFindsNothingNewWaitsForOneHandingOverWhatItRead() async throws {
        var random = SeededGenerator(seed: seed("aLookThatFindsNothingNewWaitsForOneHandingOverWhatItRead"))
        let writer = try await Peer("turns-writer")
        try await writer.draw(5, using: &random)
        _ = try await writer.synced()
        let folder = try TemporaryDirectory("folder-turns")
        try Data(contentsOf: try writer.ownFile).write(
            to: folder.url.appendingPathComponent(try writer.ownFile.lastPathComponent)
        )
        let sync = try FolderSync(store: try Store.inMemory(), directory: folder.url, configuration: Self.quick)
        try await sync.join(Self.room)
        let handed = Counter()
        await sync.setReceiver { batch in
            try? await Task.sleep(for: .milliseconds(300))
            await handed.add(batch.count)
        }
        async let first = sync.syncNow()
        try await Task.sleep(for: .milliseconds(50))
        _ = try await sync.syncNow()
        #expect(await handed.value == 5, "the second look returned before the first handed its changes over")
        _ = try await first
        await sync.stop()
        await writer.replica.stop()
    }

    private actor Counter {
        var value = 0
        func add(_ count: Int) { value += count }
    }

    @Test func aFileUnderThisReplicasNameThatItDidNotWriteIsLeftAlone() async throws {
        let store = try Store.inMemory()
        let replicaID = try store.replica(for: Self.room)
        let folder = try TemporaryDirectory("folder-foreign")
        let own = folder.url.appendingPathComponent("\(replicaID).ink")
        let other = FolderLog.fileStart(room: Self.room, replica: ReplicaID(high: 1, low: 2))
        try Data(other).write(to: own)
        let sync = try FolderSync(store: store, directory: folder.url, configuration: Self.quick)
        await #expect(throws: FolderSyncError.self) { try await sync.join(Self.room) }
        #expect(try Data(contentsOf: own) == Data(other), "nothing written to it")
        await sync.stop()
    }

    /// In an encrypted room the folder holds sealed packs: replicas with the key converge, one without it
    /// keeps them aside unread.
    @Test func anEncryptedRoomsFilesOpenOnlyWithItsKey() async throws {
        var random = SeededGenerator(seed: seed("anEncryptedRoomsFilesOpenOnlyWithItsKey"))
        let credentials = RoomCredentials.minted(key: RoomKey.generate(using: &random))
        let a = try await Peer("sealed-a", credentials: credentials)
        let b = try await Peer("sealed-b", credentials: credentials)
        let outsider = try await Peer("sealed-outsider")
        try await a.draw(6, using: &random)
        try await b.draw(4, using: &random)
        _ = try await a.synced()
        _ = try await b.synced()
        for (from, to) in [(a, b), (b, a), (a, outsider), (b, outsider)] { try Self.copyFiles(from: from, to: to) }
        let stateA = try await a.synced()
        #expect(stateA.changeCount == 10)
        #expect(try await b.synced().canonicalHash == stateA.canonicalHash)
        #expect(try await outsider.synced().changeCount == 0)
        var packs = 0
        for peer in [a, b] {
            let bytes = [UInt8](try Data(contentsOf: try peer.ownFile))
            packs += FolderLogReader.read(bytes[...], at: 0).entries.count - 1
        }
        #expect(try outsider.replica.store.storedAside(upTo: .max).count == packs, "each sealed pack kept aside")
        for peer in [a, b, outsider] { await peer.replica.stop() }
    }
}
