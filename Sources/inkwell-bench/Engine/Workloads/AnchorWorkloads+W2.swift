import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellWire

extension AnchorWorkloads {
    /// W2: a board of 10,000 strokes × 50 points, one change per stroke. Build, snapshot as the device
    /// stores it (encode and size), cold load (decode only, then every stroke opened), the memory the
    /// build took, and a cold open through the SQLite store. Then the snapshot deflated, as one sent
    /// over the network would be.
    func w2() -> [Figure] {
        let strokes = AnchorStroke.generate(seed: 2, count: size(10_000), points: 50, prefix: "a")
        let points = strokes.count * 50
        var random = SplitMix64(seed: 12)
        let before = trimmedResidentBytes()
        var first = BenchReplica(random: &random)
        for stroke in strokes { first.commit([stroke.addition]) }
        let growth = trimmedResidentBytes() - before
        let build = medianSeconds(runs: runs, setup: { BenchReplica(random: &random) }) { replica in
            for stroke in strokes { replica.commit([stroke.addition]) }
        }
        let encode = medianSeconds(runs: runs, setup: {}) { _ in blackHole(first.snapshot()) }
        let snapshot = first.snapshot()
        // Its size at equal compression with the libraries' (Benchmarks/anchor_run.py): none, then raw deflate.
        let uncompressed = first.snapshot(compression: .none)
        let decode = medianSeconds(runs: runs, setup: {}) { _ in blackHole(try! DocumentSnapshot(decoding: snapshot)) }
        let open = medianSeconds(runs: runs, setup: {}) { _ in
            let board = try! DocumentSnapshot(decoding: snapshot).restore(as: BoardState.self)
            precondition(Self.pointCount(board) == points)
        }
        let restored = try! DocumentSnapshot(decoding: snapshot).restore(as: BoardState.self)
        for (index, stroke) in strokes.enumerated() where index % max(1, strokes.count / 20) == 0 {
            let drawn = restored.drawingStroke(first.stroke(seq: UInt64(index + 1)))!
            precondition(drawn.points == stroke.points && drawn.colour == stroke.style.colour)
            precondition(drawn.width == stroke.style.width)
        }
        let store = storeColdOpen(first, snapshot: snapshot, points: points)
        // The same snapshot deflated, as one sent over the network is: what compression costs and saves.
        let wireEncode = medianSeconds(runs: runs, setup: {}) { _ in blackHole(first.snapshot(compression: .deflate)) }
        let wire = first.snapshot(compression: .deflate)
        let wireOpen = medianSeconds(runs: runs, setup: {}) { _ in
            precondition(Self.pointCount(try! DocumentSnapshot(decoding: wire).restore(as: BoardState.self)) == points)
        }
        let perPoint = Double(points)
        return [
            Figure(workload: "W2", figure: "strokes", value: Double(strokes.count)),
            Figure(workload: "W2", figure: "points", value: perPoint),
            Figure(workload: "W2", figure: "build_ms", value: build * 1e3),
            Figure(workload: "W2", figure: "build_us_per_point", value: build * 1e6 / perPoint),
            Figure(workload: "W2", figure: "snapshot_encode_ms", value: encode * 1e3),
            Figure(workload: "W2", figure: "snapshot_bytes", value: Double(uncompressed.count)),
            Figure(workload: "W2", figure: "snapshot_bytes_per_point", value: Double(uncompressed.count) / perPoint),
            Figure(workload: "W2", figure: "stored_snapshot_bytes_per_point", value: Double(snapshot.count) / perPoint),
            Figure(workload: "W2", figure: "cold_load_ms", value: decode * 1e3),
            Figure(workload: "W2", figure: "cold_load_plus_open_all_strokes_ms", value: open * 1e3),
            Figure(workload: "W2", figure: "store_cold_open_ms", value: store * 1e3),
            Figure(workload: "W2", figure: "deflated_snapshot_encode_ms", value: wireEncode * 1e3),
            Figure(workload: "W2", figure: "snapshot_deflated_bytes_per_point", value: Double(wire.count) / perPoint),
            Figure(workload: "W2", figure: "deflated_cold_load_plus_open_all_strokes_ms", value: wireOpen * 1e3),
            Figure(workload: "W2", figure: "rss_growth_first_build_mb", value: Double(growth) / 1e6),
            Figure(workload: "W2", figure: "peak_rss_mb", value: Double(ProcessUsage.ownPeakResidentBytes()) / 1e6),
        ]
    }

    /// Every point of every visible stroke, read: what "open every stroke" means for the anchors.
    static func pointCount(_ board: BoardState) -> Int {
        board.drawing.reduce(0) { $0 + $1.points.count }
    }

    /// A cold open as the app does it: the snapshot read from SQLite, decoded and applied.
    func storeColdOpen(_ replica: BenchReplica, snapshot: [UInt8], points: Int) -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-bench-\(UUID())")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try! Store(path: folder.appendingPathComponent("w2.sqlite").path)
        try! store.writeSnapshot(
            StoredSnapshot(
                room: "bench",
                document: replica.board.board.rawValue,
                cut: replica.log.frontierCut,
                schemaVersion: WireSchema.current,
                bytes: snapshot
            )
        )
        return medianSeconds(runs: runs, setup: {}) { _ in
            let contents = try! store.coldOpen(room: "bench", document: replica.board.board.rawValue)
            let board = try! DocumentSnapshot(decoding: contents.snapshot!.bytes).restore(
                as: BoardState.self,
                adding: contents.tail.map(\.payload)
            )
            precondition(Self.pointCount(board) == points)
        }
    }
}
