import InkwellSync

/// The engine's core figures: clock, change log and merge throughput.
struct EngineBenchmarks: ScaledWorkloads {
    let scale: Double
    let runs: Int

    var workloads: [Workload] {
        [
            Workload(name: "hlc", measure: hlc),
            Workload(name: "changelog", measure: changeLog),
            Workload(name: "lwwmap", measure: lwwMap),
        ]
    }

    /// Stamps per second, with the wall clock read for every stamp as in real use, and without.
    func hlc() -> [Figure] {
        let count = size(10_000_000)
        let wall = SystemWallClock()
        let withClock = medianSeconds(runs: runs) {
            var clock = HybridLogicalClock()
            for _ in 0..<count { blackHole(clock.next(wallMilliseconds: wall.millisecondsSince1970())) }
        }
        let pure = medianSeconds(runs: runs) {
            var clock = HybridLogicalClock()
            var now: UInt64 = 1_800_000_000_000
            for step in 0..<count {
                if step & 1023 == 0 { now += 1 }
                blackHole(clock.next(wallMilliseconds: now))
            }
        }
        return [
            Figure(workload: "hlc", figure: "stamps_per_second", value: Double(count) / withClock),
            Figure(workload: "hlc", figure: "stamps_per_second_no_wall_read", value: Double(count) / pure),
        ]
    }

    /// Inserts per second: local edits one at a time in order, then a shuffled catch-up batch.
    func changeLog() -> [Figure] {
        let count = size(1_000_000)
        var random = SplitMix64(seed: 1)
        let replicas = (0..<8).map { _ in ReplicaID(using: &random) }
        var clock = HybridLogicalClock()
        let changes = (0..<count).map { index in
            Change(
                id: ChangeID(replica: replicas[index % 8], seq: UInt64(index / 8 + 1)),
                stamp: clock.next(wallMilliseconds: 1_800_000_000_000 + UInt64(index / 100)),
                payload: UInt64(index)
            )
        }
        let shuffled = changes.shuffled(using: &random)
        let inOrder = medianSeconds(runs: runs) {
            var log = ChangeLog<UInt64>()
            for change in changes { try! log.insert(change) }
            blackHole(log)
        }
        let batch = medianSeconds(runs: runs) {
            var log = ChangeLog<UInt64>()
            log.insert(contentsOf: shuffled)
            blackHole(log)
        }
        var full = ChangeLog<UInt64>()
        full.insert(contentsOf: changes)
        let duplicates = medianSeconds(runs: runs) {
            var log = full
            blackHole(log.insert(contentsOf: shuffled))
        }
        return [
            Figure(workload: "changelog", figure: "inserts_per_second_in_order", value: Double(count) / inOrder),
            Figure(workload: "changelog", figure: "inserts_per_second_shuffled_batch", value: Double(count) / batch),
            Figure(workload: "changelog", figure: "duplicates_per_second_batch", value: Double(count) / duplicates),
        ]
    }

    /// Merging two maps of a million atoms each, half of the keys shared with conflicting writes.
    func lwwMap() -> [Figure] {
        let count = size(1_000_000)
        let (left, right) = twoAtomMaps(count: count)
        // In place, as a replica folds incoming state into its own; the copy is made before timing starts.
        let merge = medianSeconds(runs: runs, setup: { uniqueCopy(of: left) }) { state in
            state.merge(right)
        }
        return [
            Figure(workload: "lwwmap", figure: "merge_ms_\(count)_atoms", value: merge * 1_000),
            Figure(workload: "lwwmap", figure: "merged_atoms_per_second", value: Double(count) / merge),
        ]
    }

    /// A copy that owns its storage, so that timing a mutation does not also time copy-on-write.
    func uniqueCopy(of map: LWWMap<AtomKey<UInt64, UInt8>, UInt64>) -> LWWMap<AtomKey<UInt64, UInt8>, UInt64> {
        var copy = LWWMap<AtomKey<UInt64, UInt8>, UInt64>()
        copy.merge(map)
        return copy
    }

    func twoAtomMaps(count: Int) -> (LWWMap<AtomKey<UInt64, UInt8>, UInt64>, LWWMap<AtomKey<UInt64, UInt8>, UInt64>) {
        var random = SplitMix64(seed: 2)
        let writers = (ReplicaID(using: &random), ReplicaID(using: &random))
        var left = LWWMap<AtomKey<UInt64, UInt8>, UInt64>()
        var right = LWWMap<AtomKey<UInt64, UInt8>, UInt64>()
        for index in 0..<count {
            let stamp = Stamp(wallMilliseconds: 1_800_000_000_000 + UInt64(index))
            let key = AtomKey(UInt64(index / 4), UInt8(index % 4))
            left.set(
                key,
                to: UInt64(index),
                at: OpStamp(stamp: stamp, change: ChangeID(replica: writers.0, seq: UInt64(index + 1)))
            )
            // Right shares every other key of left, written concurrently, and has as many of its own.
            let rightKey = index.isMultiple(of: 2) ? key : AtomKey(UInt64(count + index), 0)
            let rightStamp = Stamp(rawValue: stamp.rawValue + random.next() % 3)
            right.set(
                rightKey,
                to: random.next(),
                at: OpStamp(stamp: rightStamp, change: ChangeID(replica: writers.1, seq: UInt64(index + 1)))
            )
        }
        return (left, right)
    }
}
