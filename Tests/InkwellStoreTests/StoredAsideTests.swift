import Foundation
import InkwellStore
import Testing

@Suite struct StoredAsideTests {
    @Test(arguments: StoreKind.allCases)
    func bytesFromANewerSchemaWaitUntilTheyCanBeDecoded(kind: StoreKind) throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000.25)
        let store = try kind.open(configuration: .init(now: { now })).store
        let first = try store.storeAside([1, 2], schemaVersion: 3, room: "room")
        let second = try store.storeAside([3], schemaVersion: 2, room: "other")
        try store.storeAside([4], schemaVersion: 5, room: "room")
        #expect(try store.storedAside(upTo: 1).isEmpty)
        let decodable = try store.storedAside(upTo: 3)
        #expect(decodable.map(\.id) == [first, second])
        #expect(decodable.first?.bytes == [1, 2])
        #expect(decodable.first?.room == "room")
        #expect(decodable.first?.receivedAt == now)
        try store.removeStoredAside([first, second, 999])
        #expect(try store.storedAside(upTo: .max).map(\.bytes) == [[4]])
    }

    @Test(arguments: StoreKind.allCases)
    func oversizedItemsAreRefused(kind: StoreKind) throws {
        let store = try kind.open(configuration: .init(maximumValueBytes: 2)).store
        #expect(throws: StoreError.payloadTooLarge(nil, size: 3, limit: 2)) {
            try store.storeAside([1, 2, 3], schemaVersion: 9, room: "room")
        }
        #expect(try store.storedAside(upTo: .max).isEmpty)
    }
}
