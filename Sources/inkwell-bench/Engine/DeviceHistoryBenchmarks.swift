import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellWire

/// A board with a long history on one device: its cold open and its file, with no snapshot, with a
/// snapshot while every row is kept, and with compaction.
struct DeviceHistoryBenchmarks: ScaledWorkloads {
    let scale: Double
    let runs: Int

    var workloads: [Workload] {
        [Workload(name: "device_history", measure: deviceHistory)]
    }

    enum Mode: String, CaseIterable {
        case noSnapshot = "no_snapshot"
        case rowsKept = "rows_kept"
        case compacted
    }

    /// The changes after the last snapshot: a cold open replays them on top of it.
    static let tail = 500

    /// A million changes (at scale 1) on one board, written in batches of 1,000 as a catch-up writes
    /// them. With snapshots, one is written each time the tail reaches a quarter of the history (what
    /// ends up stored is what one every 1,000 changes leaves, in far fewer rewrites), then the tail is
    /// folded in, then the last ``tail`` changes come. Cold opens: the median of up to three. Last,
    /// that tail is folded in too, timed: what the age rule costs a document with this history.
    func deviceHistory() -> [Figure] {
        let count = max(size(1_000_000), Self.tail + 1)
        let changes = Self.history(count: count)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-bench-\(UUID())")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var figures = [Figure(workload: "device_history", figure: "changes", value: Double(count))]
        var boards: [[UInt8]] = []
        for mode in Mode.allCases {
            let path = folder.appendingPathComponent("\(mode.rawValue).sqlite").path
            let store = try! Store(path: path, configuration: .init(compaction: mode == .compacted))
            let build = ContinuousClock().measure { Self.write(changes, to: store, snapshots: mode != .noSnapshot) }
            let usage = try! store.checkpoint()
            let fileBytes = (try! FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let open = medianSeconds(runs: min(runs, 3)) { blackHole(Self.coldOpen(store, count: count)) }
            boards.append(Self.coldOpen(store, count: count).canonicalEncoding())
            let contents = try! store.coldOpen(room: "bench", document: "bench")
            func figure(_ name: String, _ value: Double) -> Figure {
                Figure(workload: "device_history", figure: "\(mode.rawValue)_\(name)", value: value)
            }
            figures += [
                figure("build_s", build.seconds),
                figure("cold_open_ms", open * 1_000),
                figure("file_bytes", Double(fileBytes)),
                figure("used_bytes", Double(usage.usedBytes)),
                figure("free_bytes", Double(usage.freeBytes)),
                figure("change_rows", Double(usage.changeRows)),
                figure("tail_changes", Double(contents.tail.count)),
            ]
            if let snapshot = contents.snapshot {
                let fold = ContinuousClock().measure {
                    precondition(
                        try! store.snapshotIfNeeded(room: "bench", document: "bench", policy: .init(tailThreshold: 1))
                    )
                }
                figures += [
                    figure("snapshot_bytes", Double(snapshot.bytes.count)), figure("fold_tail_ms", fold.seconds * 1e3),
                ]
            }
        }
        precondition(Set(boards).count == 1, "every way of storing the history opens the same board")
        return figures
    }

    /// Appends all but the last ``tail`` changes, snapshotting as ``deviceHistory()`` says when asked,
    /// then the rest. The snapshot is asked for only when due: reading a long tail to find it is not
    /// due would cost more than the writer's checks every hundred commits ever do.
    static func write(_ changes: [StoredChange], to store: Store, snapshots: Bool) {
        let folded = changes.count - tail
        var start = 0
        var snapshotted = 0
        while start < folded {
            let end = min(start + 1_000, folded)
            _ = try! store.append(Array(changes[start..<end]))
            start = end
            guard snapshots, end == folded || end - snapshotted >= max(1_000, end / 4) else { continue }
            precondition(
                try! store.snapshotIfNeeded(room: "bench", document: "bench", policy: .init(tailThreshold: 1))
            )
            snapshotted = end
        }
        _ = try! store.append(Array(changes[folded...]))
    }

    /// A cold open as a replica does it: the snapshot and the tail, read, decoded and applied.
    static func coldOpen(_ store: Store, count: Int) -> BoardState {
        let contents = try! store.coldOpen(room: "bench", document: "bench")
        let board = try! snapshot(of: contents, in: store).restore(
            as: BoardState.self,
            adding: contents.tail.map(\.payload)
        )
        precondition(board.changeCount == count)
        return board
    }

    static func snapshot(of contents: DocumentContents, in store: Store) throws -> DocumentSnapshot {
        try contents.snapshot.map {
            try DocumentSnapshot(decoding: $0.bytes, maximumBytes: store.configuration.maximumValueBytes)
        }
            ?? DocumentSnapshot(
                room: "bench",
                document: "bench",
                type: BoardEdit.documentType,
                schemaVersion: BoardEdit.schemaVersion,
                cut: Cut(),
                changes: []
            )
    }

    /// A seeded history: nine changes in ten a stroke of 20–50 points, the rest erases of part of an
    /// earlier stroke and undos of one of the last few changes.
    static func history(count: Int) -> [StoredChange] {
        var writer = ChangeWriter(seed: 21)
        var strokes: [ChangeID] = []
        var changes: [StoredChange] = []
        changes.reserveCapacity(count)
        for _ in 0..<count {
            let roll = writer.random.next() % 100
            let operation: BoardOperation
            if roll < 6, let target = strokes.randomElement(using: &writer.random) {
                let start = Double(writer.random.next() % 90) / 100
                operation = .erase(StrokeID(change: target), [ParameterInterval(start, start + 0.1)])
            } else if roll < 10, writer.seq > 0 {
                let back = min(writer.seq, 1 + writer.random.next() % 20)
                operation = .undo(ChangeID(replica: writer.replica, seq: writer.seq + 1 - back))
            } else {
                operation = writer.randomStroke(points: 20 + Int(writer.random.next() % 31), grid: true)
                strokes.append(ChangeID(replica: writer.replica, seq: writer.seq + 1))
            }
            changes.append(StoreBenchmarks.stored(writer.change([operation])))
        }
        return changes
    }
}
