import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellWire

/// Wire figures: bytes per point, real and synthetic, and pack throughput.
struct WireBenchmarks: ScaledWorkloads {
    let scale: Double
    let runs: Int
    /// The human-drawn strokes (`../shared/data/shapes/dollar1-dev.jsonl`), if present.
    let shapes: URL

    var workloads: [Workload] {
        [
            Workload(name: "wire_points", measure: bytesPerPoint),
            Workload(name: "wire_packs", measure: packThroughput),
            Workload(name: "cold_open", measure: coldOpen),
            Workload(name: "wire_packs_deflate", measure: deflateLevels),
            Workload(name: "wire_authentication", measure: authentication),
            Workload(name: "wire_seal", measure: sealing),
        ]
    }

    /// Bytes per point inside a change, and after deflating all the changes as one pack.
    func bytesPerPoint() -> [Figure] {
        var figures: [Figure] = []
        if let strokes = realStrokes() {
            // As drawn (whole pixels on a 240×320 screen), and ×4 on the 1/8 px grid, as on a large
            // screen with sub-pixel input.
            figures += measure(strokes, label: "real_strokes")
            figures += measure(
                strokes.map { $0.map { InkGrid.snap(Point($0.x * 4.03, $0.y * 4.03)) } },
                label: "real_strokes_x4_subpixel"
            )
        } else {
            FileHandle.standardError.write(Data("skipped real strokes: \(shapes.path) not found\n".utf8))
        }
        figures += measure(syntheticTraces(count: size(20), points: 10_000), label: "synthetic_10k_point_traces")
        return figures
    }

    func measure(_ strokes: [[Point]], label: String) -> [Figure] {
        var writer = ChangeWriter(seed: 5)
        let changes = strokes.map {
            writer.change([.addStroke(.init(colour: .black, width: 2), points: $0, pressures: nil)])
        }
        let encoded = changes.map(ChangeCodec.encode)
        let points = Double(strokes.map(\.count).reduce(0, +))
        let pack = PackCodec.encode(Pack(room: "r", changes: encoded), signedBy: writer.key)
        let raw = Double(encoded.map(\.count).reduce(0, +))
        return [
            Figure(workload: "wire_points", figure: "\(label)_bytes_per_point", value: raw / points),
            Figure(
                workload: "wire_points",
                figure: "\(label)_bytes_per_point_deflated",
                value: Double(pack.count) / points
            ),
        ]
    }

    /// Encode (with deflate) and decode (inflate and decode every change) throughput, in MB of
    /// encoded changes per second, for 10,000 changes of 50 points; and the changes alone, both ways.
    func packThroughput() -> [Figure] {
        var writer = ChangeWriter(seed: 6)
        let changes = (0..<size(10_000)).map { _ in writer.change([writer.randomStroke(points: 50, grid: true)]) }
        let encoded = changes.map(ChangeCodec.encode)
        let megabytes = Double(encoded.map(\.count).reduce(0, +)) / 1e6
        let pack = Pack(room: "r", changes: encoded)
        let bytes = PackCodec.encode(pack, signedBy: writer.key)
        let encodeChanges = medianSeconds(runs: runs) { blackHole(changes.map(ChangeCodec.encode)) }
        let encodePack = medianSeconds(runs: runs) { blackHole(PackCodec.encode(pack, signedBy: writer.key)) }
        let decode = medianSeconds(runs: runs) {
            let decoded = try! PackCodec.decode(bytes)
            blackHole(decoded.changes.map { try! ChangeCodec.decode($0, as: BoardEdit.self) })
        }
        let decodeChanges = medianSeconds(runs: runs) {
            blackHole(encoded.map { try! ChangeCodec.decode($0, as: BoardEdit.self) })
        }
        return [
            Figure(workload: "wire_packs", figure: "change_encode_mb_per_s", value: megabytes / encodeChanges),
            Figure(workload: "wire_packs", figure: "change_decode_mb_per_s", value: megabytes / decodeChanges),
            Figure(workload: "wire_packs", figure: "pack_deflate_mb_per_s", value: megabytes / encodePack),
            Figure(workload: "wire_packs", figure: "pack_inflate_and_decode_mb_per_s", value: megabytes / decode),
            Figure(workload: "wire_packs", figure: "compression_ratio", value: megabytes * 1e6 / Double(bytes.count)),
        ]
    }

    /// Strokes of the data set, as drawn.
    func realStrokes() -> [[Point]]? {
        guard let text = try? String(contentsOf: shapes, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let strokes = object["strokes"] as? [[[Double]]], let stroke = strokes.first
            else { return nil }
            return stroke.map { Point($0[0], $0[1]) }
        }
    }

    /// Long pen traces: smooth curvature, speed varying like a hand's, sampled at 1/8 px.
    func syntheticTraces(count: Int, points: Int) -> [[Point]] {
        var random = SplitMix64(seed: 7)
        return (0..<count).map { _ in
            var position = Point(
                Double.random(in: 0...2_000, using: &random),
                Double.random(in: 0...2_000, using: &random)
            )
            var heading = Double.random(in: 0...(2 * .pi), using: &random)
            var turn = 0.0
            return (0..<points).map { index in
                turn = turn * 0.95 + Double.random(in: -0.02...0.02, using: &random)
                heading += turn
                let speed = 3 + 2.5 * sin(Double(index) / 40)
                position = position + Point(cos(heading) * speed, sin(heading) * speed)
                return InkGrid.snap(position)
            }
        }
    }
}

extension WireBenchmarks {
    /// Cold open of a 10,000-stroke × 50-point board from its snapshot: decode, apply, and the
    /// resident memory the open board adds.
    func coldOpen() -> [Figure] {
        var writer = ChangeWriter(seed: 8)
        let changes = (0..<size(10_000)).map { _ in writer.change([writer.randomStroke(points: 50, grid: true)]) }
        let snapshot = DocumentSnapshot(room: "bench", document: "bench", changes: changes).encoded()
        let open = medianSeconds(runs: runs) {
            blackHole(try! DocumentSnapshot(decoding: snapshot).restore(as: BoardState.self))
        }
        returnFreedMemory()
        let before = residentBytes()
        let board = try! DocumentSnapshot(decoding: snapshot).restore(as: BoardState.self)
        returnFreedMemory()
        let after = residentBytes()
        blackHole(board)
        return [
            Figure(workload: "cold_open", figure: "snapshot_ms_10k_strokes_x_50_points", value: open * 1_000),
            Figure(workload: "cold_open", figure: "snapshot_mb", value: Double(snapshot.count) / 1e6),
            // Resident memory moves by whole pages and with other threads' frees: a board smaller than
            // that noise (a test's tiny scale) can read as a small negative delta, which is 0 held.
            Figure(
                workload: "cold_open",
                figure: "heap_mb_held_by_open_board",
                value: Double(max(after - before, 0)) / 1e6
            ),
            Figure(workload: "cold_open", figure: "process_resident_mb", value: Double(residentBytes()) / 1e6),
        ]
    }

    /// Gives pages freed earlier back to the system, so the resident set shows what is really held.
    func returnFreedMemory() {
        _ = glibcMallocTrim(0)
    }

    /// This process's resident set size, from /proc.
    func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// glibc's `malloc_trim`, which Swift's Glibc module does not export.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
