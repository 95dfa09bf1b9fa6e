import Foundation

/// The workloads of the CRDT anchors (`../shared/anchors/bench.py`, W1–W4) run on Inkwell's engine, and
/// W5, the initial sync of a large corpus through the real server.
///
/// Timings are the best of `runs` repeats, as the anchors report theirs (best of 3, then best over
/// passes): `Benchmarks/compare.sh` runs both sides in interleaved passes and keeps the best of each.
struct AnchorWorkloads: ScaledWorkloads {
    let scale: Double
    let runs: Int

    // `--scale` scales stroke counts, as the anchors do, never points per stroke.
    var workloads: [Workload] {
        [
            Workload(name: "W1", measure: { w1() + w1Live() }),
            Workload(name: "W2", measure: w2),
            Workload(name: "W3", measure: w3),
            Workload(name: "W4", measure: w4),
            Workload(name: "W5", measure: w5),
        ]
    }
}

/// This process's resident set, from /proc, after giving freed pages back to the system.
func trimmedResidentBytes() -> Int {
    _ = mallocTrim(0)
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// glibc's `malloc_trim`, which Swift's Glibc module does not export.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
