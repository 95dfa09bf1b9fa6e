extension ChangeLog {
    /// Removes every change stamped at or before `cutoff` and returns them in the total order, so the
    /// caller can fold them into a baseline (``Baseline/absorb(_:apply:)``).
    ///
    /// `cutoff` must not pass ``stableCutoff``: only then are the removed changes a complete prefix
    /// of every timeline, and nothing stamped earlier can still arrive from a known replica.
    ///
    /// - Complexity: O(n) for a log of n changes.
    public mutating func compact(through cutoff: Stamp) throws(ChangeLogError) -> [Change<Payload>] {
        guard let stable = stableCutoff, cutoff <= stable else { throw .cutoffNotStable }
        let removed = order.prefix { $0.stamp <= cutoff }
        let changes = removed.map { self[$0.change]! }
        order.removeFirst(removed.count)
        for replica in timelines.keys { timelines[replica]!.compact(through: cutoff) }
        return changes
    }

    /// The cut of the baseline this log continues from.
    public var baselineCut: Cut {
        var cut = Cut()
        for (replica, timeline) in timelines {
            guard let stamp = timeline.baseStamp else { continue }
            cut.include(ChangeID(replica: replica, seq: timeline.base), stamp)
        }
        return cut
    }
}
