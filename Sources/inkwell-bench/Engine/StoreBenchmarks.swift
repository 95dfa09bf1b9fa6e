import Foundation
import InkwellBoard
import InkwellStore
import InkwellSync
import InkwellWire

/// Store figures, on disk in a temporary folder: inserts per second and a cold open through SQLite.
struct StoreBenchmarks: ScaledWorkloads {
    let scale: Double
    let runs: Int

    var workloads: [Workload] {
        [Workload(name: "store", measure: store)]
    }

    func store() -> [Figure] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-bench-\(UUID())")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var writer = ChangeWriter(seed: 9)
        let changes = (0..<size(10_000)).map { _ in writer.change([writer.randomStroke(points: 50, grid: true)]) }
        let stored = changes.map(Self.stored)

        // One change per transaction, each committed with a full fsync, as local edits are.
        let single = try! Store(path: folder.appendingPathComponent("single.sqlite").path)
        let singleCount = min(stored.count, size(500))
        let singleSeconds = ContinuousClock().measure {
            for change in stored.prefix(singleCount) { _ = try! single.append([change], enqueue: true) }
        }
        // Batches of 1,000, as a catch-up writes them.
        let batched = try! Store(path: folder.appendingPathComponent("batched.sqlite").path)
        let batchSeconds = ContinuousClock().measure {
            var start = 0
            while start < stored.count {
                _ = try! batched.append(Array(stored[start..<min(start + 1_000, stored.count)]))
                start += 1_000
            }
        }
        // Cold open: the latest snapshot and the changes after it, decoded and applied.
        let snapshotted = changes.count * 9 / 10
        let snapshot = DocumentSnapshot(room: "bench", document: "bench", changes: Array(changes.prefix(snapshotted)))
        try! batched.writeSnapshot(
            StoredSnapshot(
                room: "bench",
                document: "bench",
                cut: snapshot.cut,
                schemaVersion: WireSchema.current,
                bytes: snapshot.encoded()
            )
        )
        let open = medianSeconds(runs: runs) {
            let contents = try! batched.coldOpen(room: "bench", document: "bench")
            let board = try! DocumentSnapshot(decoding: contents.snapshot!.bytes).restore(
                as: BoardState.self,
                adding: contents.tail.map(\.payload)
            )
            precondition(board.visibleStrokeCount == changes.count)
        }
        let read = medianSeconds(runs: runs) { blackHole(try! batched.coldOpen(room: "bench", document: "bench")) }
        let diskBytes =
            (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("batched.sqlite").path)[
                .size
            ] as? Int) ?? 0
        let points = Double(changes.count * 50)
        return [
            Figure(
                workload: "store",
                figure: "inserts_per_second_one_per_transaction",
                value: Double(singleCount) / singleSeconds.seconds
            ),
            Figure(
                workload: "store",
                figure: "inserts_per_second_batches_of_1000",
                value: Double(stored.count) / batchSeconds.seconds
            ),
            Figure(workload: "store", figure: "cold_open_ms_snapshot_plus_10_percent_tail", value: open * 1_000),
            Figure(workload: "store", figure: "cold_open_sqlite_read_ms", value: read * 1_000),
            Figure(workload: "store", figure: "bytes_per_point_on_disk", value: Double(diskBytes) / points),
        ]
    }

    static func stored(_ change: BoardChange) -> StoredChange {
        StoredChange(
            id: change.id,
            stamp: change.stamp,
            room: "bench",
            document: change.payload.board.rawValue,
            schemaVersion: BoardEdit.schemaVersion,
            payload: ChangeCodec.encode(change),
            entities: [StrokeID(change: change.id).description]
        )
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
