import Foundation
import InkwellBoard
import InkwellStore
import InkwellSync
import InkwellWire

/// A device's own store of a room's whole history, as synced (every change a row), compacted into a
/// snapshot that holds every change, and compacted by the board's rule (the snapshot leaves out the
/// changes that stopped mattering): the bytes its pages use, how many changes it holds, and how long a
/// cold open of the board takes.
struct DeviceCompaction {
    struct Figures {
        var usedBytes = 0
        var held = 0
        var openSeconds = 0.0
    }

    var rows = Figures()
    var compacted = Figures()
    var lean = Figures()

    /// Measures `store` as it is, then a copy of it compacted keeping every change, then `store` itself
    /// compacted by the board's rule. Every cold open must show the same board.
    static func measure(_ store: Store, path: String, copy: String) throws -> DeviceCompaction {
        var result = DeviceCompaction()
        let reference: String
        (result.rows, reference) = try figures(store)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let plain = try Store(path: copy)
        try plain.snapshotIfNeeded(room: HistoryCorpus.room, document: "main", policy: .init(tailThreshold: 1))
        let plainHash: String
        (result.compacted, plainHash) = try figures(plain)
        try store.snapshotIfNeeded(
            room: HistoryCorpus.room,
            document: "main",
            policy: .init(tailThreshold: 1),
            types: DocumentTypes(documents: [BoardState.self])
        )
        let leanHash: String
        (result.lean, leanHash) = try figures(store)
        guard plainHash == reference, leanHash == reference else {
            throw BenchError("a compacted store opens to another board")
        }
        return result
    }

    private static func figures(_ store: Store) throws -> (Figures, String) {
        var figures = Figures()
        figures.usedBytes = try store.checkpoint().usedBytes
        figures.held = try store.changes(room: HistoryCorpus.room, notIn: VersionVector()).count
        var hash = ""
        figures.openSeconds = medianSeconds(runs: 3) {
            hash = (try? coldOpen(store).canonicalHash) ?? ""
        }
        return (figures, hash)
    }

    /// The board a cold open makes: the snapshot and the changes outside it.
    static func coldOpen(_ store: Store) throws -> BoardState {
        let contents = try store.coldOpen(room: HistoryCorpus.room, document: "main")
        let snapshot =
            try contents.snapshot.map {
                try DocumentSnapshot(decoding: $0.bytes, maximumBytes: store.configuration.maximumValueBytes)
            } ?? DocumentSnapshot(room: HistoryCorpus.room, document: "main", changes: [BoardChange]())
        return try snapshot.restore(as: BoardState.self, adding: contents.tail.map(\.payload))
    }
}
