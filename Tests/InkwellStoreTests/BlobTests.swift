import InkwellStore
import Testing

@Suite struct BlobTests {
    private let hash = BlobHash(hex: String(repeating: "ab", count: 32))!
    private let other = BlobHash(hex: String(repeating: "CD", count: 32))!

    @Test func hashesAreSixtyFourHexDigits() {
        #expect(BlobHash(hex: String(repeating: "0", count: 64)) != nil)
        #expect(BlobHash(hex: String(repeating: "A", count: 64))?.hex == String(repeating: "a", count: 64))
        #expect(BlobHash(hex: String(repeating: "0", count: 63)) == nil)
        #expect(BlobHash(hex: String(repeating: "g", count: 64)) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func blobMetadataFollowsItsDownload(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        var record = BlobRecord(hash: hash, size: 3, mimeType: "image/png")
        try store.putBlob(record)
        try store.putBlob(
            BlobRecord(hash: other, size: 10, mimeType: "image/jpeg", state: .present, content: .file(path: "/x"))
        )
        #expect(try store.blob(hash) == record)
        #expect(try store.blobs(state: .missing) == [record])
        record.state = .downloading
        try store.putBlob(record)
        #expect(try store.blobs(state: .missing).isEmpty)
        record.state = .present
        record.content = .inline([1, 2, 3])
        try store.putBlob(record)
        #expect(try store.blob(hash) == record)
        #expect(try store.blobs(state: .present).map(\.hash) == [hash, other])
        try store.removeBlob(hash)
        #expect(try store.blob(hash) == nil)
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func contradictoryBlobMetadataIsRefused(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        #expect(throws: StoreError.invalidBlob("present blob without content")) {
            try store.putBlob(BlobRecord(hash: hash, size: 3, mimeType: "image/png", state: .present))
        }
        #expect(throws: StoreError.invalidBlob("size differs from bytes")) {
            try store.putBlob(
                BlobRecord(hash: hash, size: 3, mimeType: "image/png", state: .present, content: .inline([1]))
            )
        }
        #expect(throws: StoreError.invalidBlob("empty mime type")) {
            try store.putBlob(BlobRecord(hash: hash, size: 3, mimeType: ""))
        }
        #expect(try store.blob(hash) == nil)
    }
}
