import InkwellSync

/// How a seed's run takes room snapshots and compacts the log, when it does (one seed in two): devices
/// send a snapshot every few changes, the server spaces them by a few hundred bytes and drops the packs
/// one stands for every second or so, and an author or device counts as present for a few seconds only.
/// A device cut off longer than that is left behind by the log's floor and must take the snapshot (a
/// rebase) when it comes back. The product's own figures (10,000 changes, 64 KiB, 30 days) would give a
/// simulated room of a few dozen strokes no snapshot at all.
struct CompactionPlan {
    /// Changes a device holds past the newest snapshot before it sends one
    /// (`SyncClient.Configuration.snapshotThreshold`).
    let snapshotThreshold: Int
    /// The most a device waits, at random, before it makes a snapshot it planned.
    let snapshotDelay: Duration
    /// Bytes a room stores after its newest snapshot before it takes another.
    let bytesBetweenSnapshots: UInt64
    /// The wait between the server's compaction passes.
    let interval: Duration
    /// How long an author or device counts as present after it was last seen.
    let retention: Duration

    init(using random: inout SplitMix64) {
        snapshotThreshold = Int.random(in: 3...12, using: &random)
        snapshotDelay = .milliseconds(Int.random(in: 0...2_000, using: &random))
        bytesBetweenSnapshots = UInt64.random(in: 100...2_000, using: &random)
        interval = .milliseconds(Int.random(in: 300...3_000, using: &random))
        retention = .seconds(Int.random(in: 2...20, using: &random))
    }
}
