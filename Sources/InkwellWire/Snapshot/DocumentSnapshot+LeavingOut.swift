public import InkwellSync

extension DocumentSnapshot {
    /// This snapshot without the changes `ids` names, its cut unchanged: the cut then stands for them
    /// without holding them, as it may for changes that stopped mattering (a device's compaction by
    /// its documents' rules, `DocumentTypes.inertChanges(among:through:)`).
    ///
    /// - Complexity: O(size of the changes) when `ids` names any of them.
    package func leavingOut(_ ids: Set<ChangeID>) -> DocumentSnapshot {
        guard !ids.isEmpty else { return self }
        let encoded = columns.encodedChanges
        var kept: [[UInt8]] = []
        kept.reserveCapacity(encoded.count)
        var index = 0
        columns.forEach { item, _ in
            let id: ChangeID?
            switch item {
            case .laidOut(let laidOut, _, _):
                id = laidOut
            case .whole(let bytes):
                id = (try? ChangeCodec.header(of: bytes)).map { ChangeID(replica: $0.replica, seq: $0.seq) }
            }
            if id.map({ !ids.contains($0) }) ?? true { kept.append(encoded[index]) }
            index += 1
        }
        guard kept.count < encoded.count else { return self }
        return DocumentSnapshot(
            room: room,
            document: document,
            type: type,
            schemaVersion: columns.schemaVersion,
            cut: cut,
            changes: kept
        )
    }
}
