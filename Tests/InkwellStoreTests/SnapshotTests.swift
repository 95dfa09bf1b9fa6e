import InkwellStore
import InkwellSync
import Testing

@Suite struct SnapshotTests {
    private func snapshot(_ cut: Cut, _ bytes: [UInt8], board: String = "board") -> StoredSnapshot {
        StoredSnapshot(room: "room", document: board, cut: cut, schemaVersion: 1, bytes: bytes)
    }

    @Test(arguments: StoreKind.allCases)
    func aSnapshotReadsBackWithItsCut(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        #expect(try store.latestSnapshot(room: "room", document: "board") == nil)
        let written = snapshot(Cut([a: (2, Stamp(rawValue: 20)), b: (1, Stamp(rawValue: .max))]), [1, 2, 3])
        try store.writeSnapshot(written)
        #expect(try store.latestSnapshot(room: "room", document: "board") == written)
        #expect(try store.latestSnapshot(room: "room", document: "other") == nil)
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func aNewerSnapshotReplacesTheOldOne(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.writeSnapshot(snapshot(Cut([a: (2, Stamp(rawValue: 20))]), [1]))
        let newer = snapshot(Cut([a: (3, Stamp(rawValue: 30)), b: (1, Stamp(rawValue: 5))]), [2])
        try store.writeSnapshot(newer)
        #expect(try store.latestSnapshot(room: "room", document: "board") == newer)
        try store.writeSnapshot(newer)
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func aSnapshotThatWouldForgetChangesIsRefused(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let kept = snapshot(Cut([a: (3, Stamp(rawValue: 30))]), [1])
        try store.writeSnapshot(kept)
        #expect(throws: StoreError.snapshotNotNewer) {
            try store.writeSnapshot(snapshot(Cut([a: (2, Stamp(rawValue: 20)), b: (4, Stamp(rawValue: 40))]), [2]))
        }
        #expect(try store.latestSnapshot(room: "room", document: "board") == kept)
    }

    @Test(arguments: StoreKind.allCases)
    func oversizedSnapshotsAreRefused(kind: StoreKind) throws {
        let store = try kind.open(configuration: .init(maximumValueBytes: 8)).store
        #expect(throws: StoreError.payloadTooLarge(nil, size: 9, limit: 8)) {
            try store.writeSnapshot(snapshot(Cut(), Array(repeating: 0, count: 9)))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aColdOpenReadsTheSnapshotAndTheChangesAfterIt(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1), change(a, 2), change(b, 1), change(a, 3)])
        #expect(try store.coldOpen(room: "room", document: "board").tail.count == 4)
        let written = snapshot(Cut([a: (2, change(a, 2).stamp)]), [7])
        try store.writeSnapshot(written)
        let contents = try store.coldOpen(room: "room", document: "board")
        #expect(contents.snapshot == written)
        #expect(contents.tail == [change(b, 1), change(a, 3)])
    }
}
