import InkwellBoard
import InkwellStore
import InkwellSync
import InkwellWire
import Testing

/// A pack from a newer schema is kept aside, untouched, and its changes are stored once the code
/// understands that schema: nothing a newer peer sent is lost by an older one.
@Suite struct FuturePackTests {
    @Test(arguments: StoreKind.allCases)
    func aFuturePackIsKeptAsideThenStoredAfterTheUpgrade(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let future = WireSchema.current + 1
        let changes = (1...3 as ClosedRange<UInt64>).map { SnapshotPolicyTests.boardChange(c, $0) }
        let bytes = PackCodec.encode(
            Pack(
                id: PackID(high: 7, low: 7),
                schemaVersion: future,
                entries: changes.map { .init(room: "room", change: $0.payload) }
            )
        )

        // Today's code: recognised from the envelope, kept aside, nothing decoded or applied.
        var error: WireError?
        do {
            _ = try PackCodec.decode(bytes)
        } catch let caught {
            error = caught
        }
        let version = try #require(error?.futureSchemaVersion)
        _ = try store.storeAside(bytes, schemaVersion: version, room: "room")
        #expect(try store.storedAside(upTo: WireSchema.current).isEmpty)
        #expect(try store.changes(room: "room", board: "board").isEmpty)

        // After an upgrade that understands it: decoded, stored, and cleared from the side table.
        let waiting = try store.storedAside(upTo: future)
        #expect(waiting.map(\.bytes) == [bytes])
        for item in waiting {
            let pack = try PackCodec.decode(item.bytes, understanding: future)
            let decoded = try pack.entries.map { try ChangeCodec.decode($0.change) }
            try store.append(
                zip(pack.entries, decoded).map { entry, change in
                    StoredChange(
                        id: change.id,
                        stamp: change.stamp,
                        room: entry.room,
                        board: change.payload.board.rawValue,
                        schemaVersion: item.schemaVersion,
                        payload: entry.change
                    )
                }
            )
        }
        try store.removeStoredAside(waiting.map(\.id))
        #expect(try store.changes(room: "room", board: "board").map(\.payload) == changes.map(\.payload))
        #expect(try store.storedAside(upTo: future).isEmpty)
    }
}
