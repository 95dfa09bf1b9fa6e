import InkwellStore
import Testing

@Suite struct WatermarkTests {
    @Test(arguments: StoreKind.allCases)
    func watermarksOnlyMoveForward(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        #expect(try store.watermark(room: "room") == 0)
        #expect(try store.setWatermark(room: "room", to: 10) == 10)
        #expect(try store.setWatermark(room: "room", to: 4) == 10)
        #expect(try store.watermark(room: "room") == 10)
        #expect(try store.setWatermark(room: "room", to: 11) == 11)
        #expect(try store.watermark(room: "other") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func badWatermarksAreRefused(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        #expect(throws: StoreError.outOfRange()) { try store.setWatermark(room: "room", to: .max) }
        #expect(throws: StoreError.emptyName()) { try store.setWatermark(room: "", to: 1) }
        #expect(try store.watermark(room: "room") == 0)
    }

    @Test func watermarksSurviveAReopen() throws {
        let opened = try StoreKind.onDisk.open()
        try opened.store.setWatermark(room: "room", to: 42)
        #expect(try opened.reopened().store.watermark(room: "room") == 42)
    }
}

@Suite struct HeardSnapshotTests {
    /// The newest snapshot heard of in a room: a later position wins, an earlier one changes nothing.
    @Test(arguments: StoreKind.allCases)
    func theNewestSnapshotHeardOfIsKept(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        #expect(try store.heardSnapshot(room: "room") == nil)
        try store.hearSnapshot(room: "room", position: 40, changes: 1_000, held: 300)
        try store.hearSnapshot(room: "room", position: 30, changes: 2_000, held: 400)
        #expect(try store.heardSnapshot(room: "room")?.position == 40)
        #expect(try store.heardSnapshot(room: "room")?.changes == 1_000)
        try store.hearSnapshot(room: "room", position: 41, changes: 1_500, held: 200)
        #expect(try store.heardSnapshot(room: "room")?.changes == 1_500)
        #expect(try store.heardSnapshot(room: "room")?.held == 200)
        #expect(try store.heardSnapshot(room: "other") == nil)
        #expect(throws: StoreError.outOfRange()) {
            try store.hearSnapshot(room: "room", position: 0, changes: 1, held: 1)
        }
    }
}
