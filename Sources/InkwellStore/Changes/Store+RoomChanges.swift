import GRDB
public import InkwellSync
import InkwellWire

extension Store {
    /// Every change the store holds for `room`, of every document, each once, in the total order
    /// `(stamp, replica, seq)`: those inside compacted snapshots and those held as rows. What a
    /// snapshot of the whole room is made from.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read; ``WireError`` for a stored change or
    ///   snapshot that does not decode.
    /// - Complexity: O(log n + size of the room's changes).
    public func roomChanges(room: String) throws -> [EncodedChange] {
        try read { db in try fetchHeld(db, room: room, document: nil, notIn: VersionVector()) }
            .map { try $0.decoded() }
    }

    /// The changes of a room (or one of its documents) past `vector`, held as rows or only inside a
    /// compacted snapshot, each once, in total order.
    ///
    /// A change inside a snapshot that also has a row (one still in the outbox, or one whose row could
    /// not be told apart from its bytes) is taken from its row.
    func fetchHeld(
        _ db: Database,
        room: String,
        document: String?,
        notIn vector: VersionVector
    ) throws -> [StoredChange] {
        var changes = try Self.fetchRows(db, room: room, document: document, notIn: vector)
        let rows = Set(changes.map(\.id))
        var added = false
        for snapshot in try Self.fetchCompacted(db, room: room, document: document)
        where !vector.covers(snapshot.cut.vector) {
            for change in try snapshotChanges(snapshot)
            where !vector.contains(change.id) && !rows.contains(change.id) {
                changes.append(change)
                added = true
            }
        }
        if added { changes.sort { $0.position < $1.position } }
        return changes
    }

    /// The changes inside a snapshot the store wrote, as the store files them (without entities).
    ///
    /// A change kept whole that does not decode is left out: compaction keeps the row of any change it
    /// cannot give back exactly (``isReproducible(_:)``).
    ///
    /// - Complexity: O(size of the snapshot).
    func snapshotChanges(_ snapshot: StoredSnapshot) throws -> [StoredChange] {
        let decoded = try decodeSnapshot(snapshot.bytes)
        return decoded.changes.compactMap { bytes in
            (try? ChangeCodec.decode(bytes)).map { StoredChange($0, room: snapshot.room, encoded: bytes) }
        }
    }

    /// A snapshot this store wrote, read up to the limit it was written within.
    func decodeSnapshot(_ bytes: [UInt8]) throws -> DocumentSnapshot {
        try DocumentSnapshot(decoding: bytes, maximumBytes: configuration.maximumValueBytes)
    }
}
