import Foundation
import InkwellGeometry
import InkwellSync

/// The ink geometry under the eraser and the lasso, on a board of 10,000 pen-like strokes of 50 points
/// (half a million points on an 8,000 px square): smoothing, flattening, finding the strokes near an
/// eraser move with the spatial index (by cell size and chunking) against a scan of every stroke's box,
/// and cutting what it finds. The index must find what the scan finds: a run whose answers differ stops.
struct GeometryBenchmarks: ScaledWorkloads {
    let scale: Double
    let runs: Int

    var workloads: [Workload] {
        [
            Workload(name: "ink_geometry", measure: inkGeometry),
            Workload(name: "spatial_index", measure: spatialIndex),
            Workload(name: "eraser_step", measure: eraserStep),
        ]
    }

    static let side = 8_000.0
    static let radius = 8.0

    /// Pen-like strokes of 50 points: a random walk of varied steps with gentle turns and now and then a
    /// sharp corner or a repeated point, smoothed as the board smooths ink.
    func board() -> [SmoothCurve] {
        var random = SplitMix64(seed: 1)
        return (0..<size(10_000)).map { _ in
            var point = Point(
                Double.random(in: 0...Self.side, using: &random),
                Double.random(in: 0...Self.side, using: &random)
            )
            var heading = Double.random(in: 0..<(2 * Double.pi), using: &random)
            var points = [point]
            while points.count < 50 {
                let roll = Double.random(in: 0..<1, using: &random)
                if roll < 0.05 {
                    points.append(point)
                    continue
                }
                heading +=
                    roll < 0.15
                    ? Double.random(in: -2.5...2.5, using: &random) : Double.random(in: -0.4...0.4, using: &random)
                point = point + Point(cos(heading), sin(heading)) * Double.random(in: 1...10, using: &random)
                points.append(point)
            }
            return SmoothCurve(points: points)
        }
    }

    /// Eraser moves: a 12 px drag somewhere on the board.
    func moves(count: Int) -> [[Point]] {
        var random = SplitMix64(seed: 2)
        return (0..<count).map { _ in
            let start = Point(
                Double.random(in: 0...Self.side, using: &random),
                Double.random(in: 0...Self.side, using: &random)
            )
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
            return [start, start + Point(cos(angle), sin(angle)) * 12]
        }
    }

    func inkGeometry() -> [Figure] {
        let curves = board()
        let points = curves.reduce(0) { $0 + $1.pointCount }
        let lists = curves.map(\.points)
        let smooth = medianSeconds(runs: runs) { for list in lists { _ = SmoothCurve(points: list) } }
        var flattened = 0
        let flatten = medianSeconds(runs: runs) {
            flattened = curves.reduce(0) { $0 + $1.flattened(tolerance: 0.25).count }
        }
        return [
            Figure(workload: "ink_geometry", figure: "smooth_ns_per_point", value: smooth * 1e9 / Double(points)),
            Figure(workload: "ink_geometry", figure: "flatten_ns_per_point", value: flatten * 1e9 / Double(points)),
            Figure(
                workload: "ink_geometry",
                figure: "flattened_points_per_segment",
                value: Double(flattened) / Double(points - curves.count)
            ),
        ]
    }

    /// Microseconds per eraser-move query: a scan of every stroke's box, then the grid by cell size, with
    /// one box a stroke or a box every 16 or 8 points.
    func spatialIndex() -> [Figure] {
        let curves = board()
        let rects = moves(count: size(10_000)).map { Rect(bounding: $0)!.expanded(by: Self.radius) }
        let boxes = curves.map { $0.bounds! }
        let scanned = rects.map { rect in Set(boxes.indices.filter { boxes[$0].intersects(rect) }) }
        let scan = medianSeconds(runs: runs) {
            for rect in rects { _ = boxes.indices.filter { boxes[$0].intersects(rect) } }
        }
        var figures = [
            Figure(workload: "spatial_index", figure: "scan_us_per_query", value: scan * 1e6 / Double(rects.count))
        ]
        for (label, chunk) in [("whole", 0), ("chunks16", 16), ("chunks8", 8)] {
            let lists = curves.map { chunk == 0 ? [$0.bounds!] : $0.chunkBounds(pointsPerChunk: chunk) }
            for cell in [32.0, 64, 128, 256, 512] {
                var index = SpatialIndex<Int>(configuration: .init(cellSize: cell))
                for (id, list) in lists.enumerated() { index.insert(id, boxes: list) }
                // A chunk's box lies inside its stroke's: the index finds a subset of the scan, all of it
                // with one box a stroke.
                for (rect, expected) in zip(rects, scanned) {
                    let found = Set(index.query(rect))
                    precondition(
                        chunk == 0 ? found == expected : found.isSubset(of: expected),
                        "the index lost a stroke"
                    )
                }
                let query = medianSeconds(runs: runs) { for rect in rects { _ = index.query(rect) } }
                figures.append(
                    Figure(
                        workload: "spatial_index",
                        figure: "\(label)_cell\(Int(cell))_us_per_query",
                        value: query * 1e6 / Double(rects.count)
                    )
                )
            }
        }
        return figures
    }

    /// One eraser step: find the strokes near the move (16-point chunks, 128 px cells) and cut them, against
    /// cutting every stroke; a lasso of 600 px radius.
    func eraserStep() -> [Figure] {
        let curves = board()
        let moves = moves(count: size(10_000))
        var index = SpatialIndex<Int>()
        for (id, curve) in curves.enumerated() { index.insert(id, boxes: curve.chunkBounds()) }
        let eraser = PartialEraser(radius: Self.radius)
        let withIndex = medianSeconds(runs: runs) {
            for move in moves {
                for id in index.query(Rect(bounding: move)!.expanded(by: Self.radius)) {
                    _ = eraser.cut(curves[id], along: move)
                }
            }
        }
        // The index must not change what is cut.
        let sample = Array(moves.prefix(max(1, size(100))))
        for move in sample {
            let near = Set(index.query(Rect(bounding: move)!.expanded(by: Self.radius)))
            for (id, curve) in curves.enumerated() where !near.contains(id) {
                precondition(eraser.cut(curve, along: move).isEmpty, "a stroke the index did not find is cut")
            }
        }
        let withoutIndex = medianSeconds(runs: runs) {
            for move in sample { for curve in curves { _ = eraser.cut(curve, along: move) } }
        }
        let lasso = Lasso(
            polygon: (0..<64).map {
                Point(Self.side / 2 + 600 * cos(Double($0) / 10.2), Self.side / 2 + 600 * sin(Double($0) / 10.2))
            }
        )
        let lassoTime = medianSeconds(runs: runs) {
            _ = index.query(lasso.bounds!).filter { lasso.selects(curves[$0]) }
        }
        return [
            Figure(
                workload: "eraser_step",
                figure: "indexed_us_per_move",
                value: withIndex * 1e6 / Double(moves.count)
            ),
            Figure(
                workload: "eraser_step",
                figure: "unindexed_ms_per_move",
                value: withoutIndex * 1e3 / Double(sample.count)
            ),
            Figure(workload: "eraser_step", figure: "lasso_600px_ms", value: lassoTime * 1e3),
        ]
    }
}
