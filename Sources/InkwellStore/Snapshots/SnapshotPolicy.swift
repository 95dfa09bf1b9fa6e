/// When a document's tail (its changes inside the room's frontier and outside its snapshot) is folded
/// into a new snapshot: as soon as it is long, or once it is old and no longer tiny.
///
/// Length bounds a cold open's replay. Age bounds how long a document that went quiet keeps its last
/// edits twice (as rows and, later, in the snapshot) and replays them at every open: without it, a
/// board edited 900 times and then left alone would never get a snapshot. The minimum keeps the age
/// rule from rewriting a large snapshot (O(its size)) for a handful of changes that cost a cold open
/// almost nothing.
public struct SnapshotPolicy: Hashable, Sendable {
    /// A tail this long is folded in at once.
    public var tailThreshold: Int
    /// A shorter tail whose oldest change has waited this long is folded in, if it has at least
    /// ``minimumAgedTail`` changes.
    public var maximumAge: Duration
    /// The shortest tail the age rule folds in. 32 changes replay in about 0.2 ms and take 11 KB as
    /// rows, while a fold rewrites the whole snapshot, about 1.6 µs a change it holds (1.6 s for a
    /// board of a million changes; BENCHMARKS.md, "Device history"): below that, the rewrite costs
    /// more than the tail.
    public var minimumAgedTail: Int
    /// How often the writer looks for tails that have aged: commits alone never wake a quiet document.
    public var sweepInterval: Duration

    public init(
        tailThreshold: Int = 1_000,
        maximumAge: Duration = .seconds(600),
        minimumAgedTail: Int = 32,
        sweepInterval: Duration = .seconds(60)
    ) {
        self.tailThreshold = tailThreshold
        self.maximumAge = maximumAge
        self.minimumAgedTail = minimumAgedTail
        self.sweepInterval = sweepInterval
    }

    /// Whether a tail of `length` changes, the oldest stored `waited` ago, is due.
    func isDue(length: Int, waited: Duration?) -> Bool {
        guard length >= 1 else { return false }
        if length >= tailThreshold { return true }
        guard let waited else { return false }
        return length >= minimumAgedTail && waited >= maximumAge
    }

    /// ``maximumAge`` in milliseconds, as the store dates tails.
    var maximumAgeMilliseconds: Int64 {
        let (seconds, attoseconds) = maximumAge.components
        return seconds.multipliedReportingOverflow(by: 1000).overflow
            ? .max : seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
