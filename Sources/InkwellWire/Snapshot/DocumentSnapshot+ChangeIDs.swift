public import InkwellSync

extension DocumentSnapshot {
    /// The ids of the changes inside, read from the columns; a change kept whole is read for its header,
    /// and left out if it has none. What a store checks before it lets a snapshot be a change's only copy.
    ///
    /// - Complexity: O(changes laid out by column + size of the changes kept whole).
    package var changeIDs: Set<ChangeID> {
        var ids = Set<ChangeID>(minimumCapacity: changeCount)
        columns.forEach { item, _ in
            switch item {
            case .laidOut(let id, _, _):
                ids.insert(id)
            case .whole(let bytes):
                if let header = try? ChangeCodec.header(of: bytes) {
                    ids.insert(ChangeID(replica: header.replica, seq: header.seq))
                }
            }
        }
        return ids
    }
}
