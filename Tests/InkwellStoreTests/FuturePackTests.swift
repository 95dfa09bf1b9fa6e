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
        let key = AuthorKey()
        let changes = (1...3 as ClosedRange<UInt64>).map { SnapshotPolicyTests.boardChange(key.replica, $0) }
        let bytes = PackCodec.encode(
            Pack(room: "room", schemaVersion: future, changes: changes.map(\.payload)),
            signedBy: key
        )

        // Today's code: recognised from the envelope, kept aside, nothing decoded or applied.
        let version = try #require(Self.futureSchemaVersion(of: bytes, room: "room"))
        _ = try store.storeAside(bytes, schemaVersion: version, room: "room")
        #expect(try store.storedAside(upTo: WireSchema.current).isEmpty)
        #expect(try store.changes(room: "room", document: "board").isEmpty)

        // After an upgrade that understands it: decoded, stored, and cleared from the side table.
        let waiting = try store.storedAside(upTo: future)
        #expect(waiting.map(\.bytes) == [bytes])
        for item in waiting {
            let pack = try PackCodec.decode(item.bytes, room: item.room, understanding: future)
            let decoded = try pack.changes.map { try ChangeCodec.decode($0, as: BoardEdit.self) }
            try store.append(
                zip(pack.changes, decoded).map { bytes, change in
                    StoredChange(
                        id: change.id,
                        stamp: change.stamp,
                        room: pack.room,
                        document: change.payload.board.rawValue,
                        schemaVersion: item.schemaVersion,
                        payload: bytes
                    )
                }
            )
        }
        try store.removeStoredAside(waiting.map(\.id))
        #expect(try store.changes(room: "room", document: "board").map(\.payload) == changes.map(\.payload))
        #expect(try store.storedAside(upTo: future).isEmpty)
    }

    /// The schema a pack says it is from, when decoding it finds that newer than this code's.
    static func futureSchemaVersion(of bytes: [UInt8], room: String) -> UInt32? {
        do {
            _ = try PackCodec.decode(bytes, room: room)
            return nil
        } catch {
            return error.futureSchemaVersion
        }
    }
}
