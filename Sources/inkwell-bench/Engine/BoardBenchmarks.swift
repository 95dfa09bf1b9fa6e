import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellWire

/// Board figures: the classic ink benchmark and the cost of one change on an empty and a full board.
struct BoardBenchmarks: ScaledWorkloads {
    let scale: Double
    let runs: Int

    var workloads: [Workload] {
        [
            Workload(name: "ink", measure: ink),
            Workload(name: "board_apply", measure: apply),
            Workload(name: "erase_at_point", measure: eraseAtPoint),
        ]
    }

    /// One stroke, 1,000 points appended one change per point (a native implementation published 65.7 ms).
    func ink() -> [Figure] {
        var writer = ChangeWriter(seed: 1)
        let first = writer.change([.addStroke(.init(colour: .black, width: 2), points: [Point(0, 0)], pressures: nil)])
        let id = StrokeID(change: first.id)
        let appends = (1..<1_000).map { index in
            writer.change([.appendPoints(id, points: [Point(Double(index), Double(index % 7))], pressures: nil)])
        }
        let total = medianSeconds(runs: max(runs, 21), setup: { BoardState(board: "bench") }) { board in
            board.apply(first)
            for change in appends { board.apply(change) }
        }
        return [
            Figure(workload: "ink", figure: "append_1000_points_total_ms", value: total * 1_000),
            Figure(workload: "ink", figure: "us_per_point", value: total * 1_000_000 / 1_000),
        ]
    }

    /// Microseconds per change for adds, erases and attribute writes, on an empty board and on a
    /// board of 10,000 strokes × 50 points: the aim is no difference.
    func apply() -> [Figure] {
        let strokes = size(10_000)
        var writer = ChangeWriter(seed: 2)
        let existing = (0..<strokes).map { _ in writer.change([writer.randomStroke(points: 50)]) }
        let sample = 1_000
        let adds = (0..<sample).map { _ in writer.change([writer.randomStroke(points: 50)]) }
        let erases = adds.map { writer.change([.erase(StrokeID(change: $0.id), [ParameterInterval(10, 12.5)])]) }
        let sets = adds.map { writer.change([.set(StrokeID(change: $0.id), .colour(Colour(rgba: 0xFF00_00FF)))]) }
        var figures: [Figure] = []
        for (label, base) in [("empty", [BoardChange]()), ("10k_strokes", existing)] {
            for (kind, changes, prefix) in [
                ("add", adds, [BoardChange]()), ("erase", erases, adds), ("set", sets, adds),
            ] {
                let seconds = medianSeconds(runs: runs, setup: { BoardState.built(from: base + prefix) }) { board in
                    for change in changes { board.apply(change) }
                }
                figures.append(
                    Figure(
                        workload: "board_apply",
                        figure: "\(kind)_us_per_change_\(label)",
                        value: seconds * 1e6 / Double(sample)
                    )
                )
            }
        }
        return figures
    }
}

extension BoardState {
    static func built(from changes: [BoardChange]) -> BoardState {
        var board = BoardState(board: "bench")
        for change in changes { board.apply(change) }
        return board
    }
}

/// Makes a replica's changes for benchmarks: contiguous seqs, increasing stamps, seeded points.
struct ChangeWriter {
    var random: SplitMix64
    /// Signs the writer's packs and owns its replica.
    let key: AuthorKey
    var replica: ReplicaID { key.replica }
    var seq: UInt64 = 0
    var clock = HybridLogicalClock()

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        key = AuthorKey(using: &random)
    }

    mutating func change(_ operations: [BoardOperation]) -> BoardChange {
        seq += 1
        return Change(
            id: ChangeID(replica: replica, seq: seq),
            stamp: clock.next(wallMilliseconds: 1_800_000_000_000 + seq / 10),
            payload: BoardEdit(board: "bench", operations: operations)
        )
    }

    /// A wandering pen stroke somewhere on a 4,000 × 4,000 board, snapped to the ink grid when asked.
    mutating func randomStroke(points count: Int, grid: Bool = false) -> BoardOperation {
        var point = Point(Double.random(in: 0...4_000, using: &random), Double.random(in: 0...4_000, using: &random))
        let points = (0..<count).map { _ in
            point = point + Point(Double.random(in: -4...4, using: &random), Double.random(in: -4...4, using: &random))
            return grid ? InkGrid.snap(point) : point
        }
        return .addStroke(StrokeStyle(colour: .black, width: 2), points: points, pressures: nil)
    }
}

extension BoardBenchmarks {
    /// Tap-to-erase latency on a board of 10,000 strokes × 50 points: find the strokes near the tap,
    /// cut their curves, apply the erase change and update the index. Reports p50 and p99.
    func eraseAtPoint() -> [Figure] {
        var writer = ChangeWriter(seed: 3)
        var board = BoardState(board: "bench")
        for _ in 0..<size(10_000) { board.apply(writer.change([writer.randomStroke(points: 50)])) }
        var index = StrokeIndex(board)
        var random = SplitMix64(seed: 4)
        let clock = ContinuousClock()
        var latencies: [Double] = []
        var erased = 0
        for _ in 0..<max(size(1_000), 20) {
            let tap = Point(Double.random(in: 0...4_000, using: &random), Double.random(in: 0...4_000, using: &random))
            let elapsed = clock.measure {
                let operations = index.partialErase(along: [tap], radius: 12, in: board)
                guard !operations.isEmpty else { return }
                erased += 1
                let delta = board.apply(writer.change(operations))
                index.update(from: board, after: delta)
            }
            latencies.append(Double(elapsed.components.attoseconds) * 1e-12 + Double(elapsed.components.seconds) * 1e6)
        }
        latencies.sort()
        return [
            Figure(workload: "erase_at_point", figure: "p50_us", value: latencies[latencies.count / 2]),
            Figure(workload: "erase_at_point", figure: "p99_us", value: latencies[latencies.count * 99 / 100]),
            Figure(
                workload: "erase_at_point",
                figure: "taps_that_erased_percent",
                value: Double(erased) * 100 / Double(latencies.count)
            ),
        ]
    }
}
