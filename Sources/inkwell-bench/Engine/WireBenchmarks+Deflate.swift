import Foundation
import InkwellBoard
import InkwellSync
import InkwellWire

extension WireBenchmarks {
    /// libdeflate's levels, and zlib's level 1 beside them, on the bodies Inkwell compresses: the W2 board's snapshot body
    /// (10,000 strokes × 50 points), its packs as a client pushes them (512 changes), and a one-stroke
    /// pack (a pen-up). Per body and setting: compressed size over plain size, deflate and inflate speed
    /// in MB/s of plain bytes, from the thread's CPU time (other processes on a shared machine move wall
    /// time far more). What ``PackCodec/Compression`` was chosen from. Reported under `wire_packs`;
    /// `--filter wire_packs_deflate` runs these alone.
    func deflateLevels() -> [Figure] {
        var random = SplitMix64(seed: 12)
        var replica = BenchReplica(random: &random)
        for stroke in AnchorStroke.generate(seed: 2, count: size(10_000), points: 50, prefix: "a") {
            replica.commit([stroke.addition])
        }
        let changes = replica.log.inOrder.map(\.payload)
        let bodies: [(String, [UInt8])] = [
            ("snapshot", PackCodec.body(changes.lazy.map { (room: "", change: $0) })),
            ("pack512", PackCodec.body(changes.prefix(512).lazy.map { (room: "bench", change: $0) })),
            ("pack8", PackCodec.body(changes.prefix(8).lazy.map { (room: "bench", change: $0) })),
            ("pack1", PackCodec.body(changes.prefix(1).lazy.map { (room: "bench", change: $0) })),
        ]
        let settings: [PackCodec.Compression] = [1, 2, 3, 4, 6, 9, 12].map { .deflate(level: $0) }
        var figures: [Figure] = []
        for (name, plain) in bodies {
            // Small bodies are timed in batches, so the clock's resolution does not matter.
            let repeats = max(1, Int(2_000_000 * scale) / max(plain.count, 1))
            figures.append(
                Figure(workload: "wire_packs", figure: "deflate.\(name).plain_bytes", value: Double(plain.count))
            )
            // libdeflate at each level (what packs use), then zlib at level 1 (what they used), alike.
            var coders: [(label: String, deflate: () -> [UInt8], inflate: ([UInt8]) -> [UInt8])] = settings.map {
                setting in
                (
                    setting.description.split(separator: " ").joined(separator: "_"),
                    { PackCodec.deflate(plain, setting) },
                    { try! PackCodec.inflate($0, size: plain.count) }
                )
            }
            coders.append(
                (
                    "zlib_level_1", { ZlibBaseline.deflate(plain, level: 1) },
                    { ZlibBaseline.inflate($0, size: plain.count) }
                )
            )
            for coder in coders {
                let label = "deflate.\(name).\(coder.label)"
                let compressed = coder.deflate()
                precondition(
                    coder.inflate(compressed) == plain
                        && (try! PackCodec.inflate(compressed, size: plain.count)) == plain
                )
                let deflate = bestCPUSeconds(runs: runs) {
                    for _ in 0..<repeats { blackHole(coder.deflate()) }
                }
                let inflate = bestCPUSeconds(runs: runs) {
                    for _ in 0..<repeats { blackHole(coder.inflate(compressed)) }
                }
                let megabytes = Double(plain.count * repeats) / 1e6
                figures += [
                    Figure(
                        workload: "wire_packs",
                        figure: "\(label).ratio_pct",
                        value: 100 * Double(compressed.count) / Double(plain.count)
                    ),
                    Figure(workload: "wire_packs", figure: "\(label).deflate_MB_per_s", value: megabytes / deflate),
                    Figure(workload: "wire_packs", figure: "\(label).inflate_MB_per_s", value: megabytes / inflate),
                ]
            }
        }
        return figures
    }
}

/// The least CPU time this thread spent in `body` over `runs` runs, in seconds.
func bestCPUSeconds(runs: Int, _ body: () -> Void) -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
    var best = Double.infinity
    for _ in 0..<runs {
        let start = now()
        body()
        best = min(best, now() - start)
    }
    return best
}
