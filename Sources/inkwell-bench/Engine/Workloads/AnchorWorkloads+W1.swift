import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellWire

extension AnchorWorkloads {
    /// W1: one stroke, 1,000 points appended one at a time, each its own change encoded for the wire
    /// (the first point adds the stroke: Inkwell has no empty strokes). Then the final snapshot, and a
    /// remote device applying the 1,000 wire changes one by one. Sizes uncompressed, and deflated.
    func w1() -> [Figure] {
        let (points, style) = Self.w1Stroke()
        let count = points.count
        var random = SplitMix64(seed: 11)
        var wire: [[UInt8]] = []
        var final: BenchReplica?
        let total = medianSeconds(runs: runs, setup: { BenchReplica(random: &random) }) { replica in
            wire = Self.w1Updates(&replica, points: points, style: style)
            final = replica
        }
        let author = final!
        precondition(author.board.points(of: author.stroke(seq: 1)) == points)
        // Sizes at equal compression (Benchmarks/anchor_run.py deflates the libraries' alike): none, then
        // raw deflate at level 1 on each change and on the snapshot, as packs are deflated.
        let snapshot = author.snapshot(compression: .none)
        let snapshotDeflated = author.snapshot(compression: .deflate)
        let wireDeflated = Double(wire.reduce(0) { $0 + PackCodec.compress($1, .deflate).bytes.count })
        let apply = medianSeconds(runs: runs, setup: { BenchReplica(random: &random) }) { remote in
            for bytes in wire { try! remote.receive(change: bytes) }
        }
        var check = BenchReplica(random: &random)
        for bytes in wire { try! check.receive(change: bytes) }
        precondition(check.board.canonicalEncoding() == author.board.canonicalEncoding())
        // What Inkwell sends when the pen lifts: the stroke as one change (in-progress ink goes as presence).
        var penUp = BenchReplica(random: &random)
        let whole = penUp.commit([.addStroke(style, points: points, pressures: nil)])
        let wireBytes = Double(wire.map(\.count).reduce(0, +))
        // The least a change that stands on its own can carry besides its operation: its replica's 16
        // bytes and its stamp's wall-clock milliseconds, 41 bits today: a 6-byte varint until 2109.
        let last = try! ChangeCodec.decode(wire.last!, as: BoardEdit.self)
        let floor = last.id.replica.bytes.count + (70 - last.stamp.wallMilliseconds.leadingZeroBitCount) / 7
        let perPoint = Double(count)
        return [
            Figure(workload: "W1", figure: "points", value: perPoint),
            Figure(workload: "W1", figure: "append_total_ms", value: total * 1e3),
            Figure(workload: "W1", figure: "us_per_point", value: total * 1e6 / perPoint),
            Figure(workload: "W1", figure: "wire_bytes", value: wireBytes),
            Figure(workload: "W1", figure: "wire_bytes_per_point", value: wireBytes / perPoint),
            Figure(workload: "W1", figure: "snapshot_bytes", value: Double(snapshot.count)),
            Figure(workload: "W1", figure: "wire_deflated_bytes_per_point", value: wireDeflated / perPoint),
            Figure(workload: "W1", figure: "snapshot_bytes_per_point", value: Double(snapshot.count) / perPoint),
            Figure(
                workload: "W1",
                figure: "snapshot_deflated_bytes_per_point",
                value: Double(snapshotDeflated.count) / perPoint
            ),
            Figure(workload: "W1", figure: "remote_apply_us_per_update", value: apply * 1e6 / perPoint),
            Figure(workload: "W1", figure: "pen_up_change_bytes_per_point", value: Double(whole.count) / perPoint),
            Figure(workload: "W1", figure: "self_contained_floor_bytes_per_point", value: Double(floor)),
        ]
    }

    /// W1's stroke: 1,000 points of the anchors' walk, on the ink grid, and its style.
    static func w1Stroke() -> (points: [Point], style: StrokeStyle) {
        var generator = PythonRandom(seed: 1)
        let points = AnchorStroke.walk(&generator, count: 1_000).map(InkGrid.snap)
        return (points, StrokeStyle(colour: Colour(rgba: AnchorStroke.palette[0]), width: 2))
    }

    /// W1's updates: the first point adds the stroke, each later one appends to it, each its own change.
    static func w1Updates(_ replica: inout BenchReplica, points: [Point], style: StrokeStyle) -> [[UInt8]] {
        var updates: [[UInt8]] = []
        updates.reserveCapacity(points.count)
        updates.append(replica.commit([.addStroke(style, points: [points[0]], pressures: nil)]))
        let stroke = replica.stroke(seq: 1)
        for point in points.dropFirst() {
            updates.append(replica.commit([.appendPoints(stroke, points: [point], pressures: nil)]))
        }
        return updates
    }
}
