import Foundation
import InkwellGeometry
import InkwellTesting
import Testing

/// Prints the spatial-index and eraser figures for BENCHMARKS.md; no timed assertions. Run in a release build:
/// `INKWELL_BENCH=1 swift test -c release --scratch-path .build-geometry --filter SpatialIndexBenchmarkTests`.
@Suite struct SpatialIndexBenchmarkTests {
    static let isEnabled = ProcessInfo.processInfo.environment["INKWELL_BENCH"] == "1"

    /// 10,000 pen-like strokes of 50 points on an 8,000 px square board: 500,000 points.
    static func board(seed: UInt64) -> [SmoothCurve] {
        var random = InkRandom(seed: seed)
        return (0..<10_000).map { _ in
            let origin = Point(random.coordinate(0...8000), random.coordinate(0...8000))
            return SmoothCurve(points: random.stroke(count: 50, origin: origin, step: 1...10))
        }
    }

    /// Eraser moves: a 12 px drag of an 8 px eraser somewhere on the board.
    static func moves(seed: UInt64, count: Int) -> [[Point]] {
        var random = InkRandom(seed: seed)
        return (0..<count).map { _ in
            let start = Point(random.coordinate(0...8000), random.coordinate(0...8000))
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
            return [start, start + Point(cos(angle), sin(angle)) * 12]
        }
    }

    static func seconds(_ body: () -> Void) -> Double {
        var runs: [Double] = []
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            runs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return runs.sorted()[2]
    }

    @Test(.enabled(if: isEnabled))
    func printQueryAndEraseFiguresOnAHalfMillionPointBoard() {
        let radius = 8.0
        var curves: [SmoothCurve] = []
        let buildCurves = Self.seconds { curves = Self.board(seed: 1) }
        let points = curves.reduce(0) { $0 + $1.pointCount }
        print(
            String(
                format: "bench board: %d strokes, %d points; generate + smooth %.0f ms",
                curves.count,
                points,
                buildCurves * 1e3
            )
        )
        let pointLists = curves.map(\.points)
        let smooth = Self.seconds { for list in pointLists { _ = SmoothCurve(points: list) } }
        print(
            String(
                format: "bench smoothing: %.1f ns per point (centripetal Catmull-Rom)",
                smooth * 1e9 / Double(points)
            )
        )
        var flatCount = 0
        let flatten = Self.seconds { flatCount = curves.reduce(0) { $0 + $1.flattened(tolerance: 0.25).count } }
        print(
            String(
                format: "bench flattening at 0.25 px: %.1f ns per point, %.2f output points per segment",
                flatten * 1e9 / Double(points),
                Double(flatCount) / Double(points - curves.count)
            )
        )

        let moves = Self.moves(seed: 2, count: 10_000)
        let rects = moves.map { Rect(bounding: $0)!.expanded(by: radius) }
        let wholeBoxes = curves.map { $0.bounds! }

        // Baseline: every stroke's box, one by one.
        var linearFound = 0
        let linear = Self.seconds {
            linearFound = 0
            for rect in rects { linearFound += wholeBoxes.indices.filter { wholeBoxes[$0].intersects(rect) }.count }
        }
        print(
            String(
                format: "bench linear scan of stroke boxes: %.2f µs per query, %.3f strokes found",
                linear * 1e6 / Double(rects.count),
                Double(linearFound) / Double(rects.count)
            )
        )

        for (label, chunk) in [("whole-stroke box", 0), ("16-point chunks", 16), ("8-point chunks", 8)] {
            let boxes = curves.map { chunk == 0 ? [$0.bounds!] : $0.chunkBounds(pointsPerChunk: chunk) }
            for cellSize in [32.0, 64, 128, 256, 512] {
                var index = SpatialIndex<Int>(configuration: .init(cellSize: cellSize))
                let build = Self.seconds {
                    index = SpatialIndex<Int>(configuration: .init(cellSize: cellSize))
                    for (id, list) in boxes.enumerated() { index.insert(id, boxes: list) }
                }
                var found = 0
                let query = Self.seconds {
                    found = 0
                    for rect in rects { found += index.query(rect).count }
                }
                print(
                    String(
                        format: "bench grid %@, cell %.0f: build %.0f ms, %.2f µs per query, %.3f strokes found",
                        label,
                        cellSize,
                        build * 1e3,
                        query * 1e6 / Double(rects.count),
                        Double(found) / Double(rects.count)
                    )
                )
            }
        }

        // Whole erase step: query, then cut every stroke found.
        var index = SpatialIndex<Int>()
        for (id, curve) in curves.enumerated() { index.insert(id, boxes: curve.chunkBounds()) }
        index.checkInvariants()
        let eraser = PartialEraser(radius: radius)
        var cutStrokes = 0
        var intervals = 0
        let erase = Self.seconds {
            cutStrokes = 0
            intervals = 0
            for (move, rect) in zip(moves, rects) {
                for id in index.query(rect) {
                    let cuts = eraser.cut(curves[id], along: move)
                    if !cuts.isEmpty { cutStrokes += 1 }
                    intervals += cuts.count
                }
            }
        }
        print(
            String(
                format:
                    "bench erase step (query 16-point chunks, cell 128, then cut): %.2f µs per move, %.3f strokes cut per move",
                erase * 1e6 / Double(moves.count),
                Double(cutStrokes) / Double(moves.count)
            )
        )
        let eraseAll = Self.seconds {
            for move in moves.prefix(100) { for curve in curves { _ = eraser.cut(curve, along: move) } }
        }
        print(
            String(
                format: "bench erase step without an index (cut all 10,000 strokes): %.2f ms per move",
                eraseAll * 1e3 / 100
            )
        )
        // Cut cost on strokes the eraser really crosses.
        let crossings = zip(moves, rects).flatMap { move, rect in index.query(rect).map { (move, $0) } }
        let cutOnly = Self.seconds { for (move, id) in crossings { _ = eraser.cut(curves[id], along: move) } }
        print(
            String(
                format: "bench cut of one 50-point stroke near the eraser: %.2f µs",
                cutOnly * 1e6 / Double(max(crossings.count, 1))
            )
        )
        let stroke = StrokeEraser(radius: radius)
        let hitOnly = Self.seconds {
            for (move, id) in crossings { _ = stroke.hits(curves[id], width: 2, along: move) }
        }
        print(
            String(
                format: "bench whole-stroke hit test of a 50-point stroke near the eraser: %.2f µs",
                hitOnly * 1e6 / Double(max(crossings.count, 1))
            )
        )
        let lasso = Lasso(
            polygon: (0..<64).map { Point(4000 + 600 * cos(Double($0) / 10.2), 4000 + 600 * sin(Double($0) / 10.2)) }
        )
        var selected = 0
        let lassoTime = Self.seconds {
            let candidates = index.query(lasso.bounds!)
            selected = candidates.filter { lasso.selects(curves[$0]) }.count
        }
        print(
            String(
                format: "bench lasso of 600 px radius (64 corners): %.1f ms, %d strokes selected",
                lassoTime * 1e3,
                selected
            )
        )
    }
}
