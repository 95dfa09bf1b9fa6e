extension ChangeLog: InvariantChecking {
    /// Checks the order index against the timelines and every timeline's shape.
    ///
    /// - Complexity: O(n log n).
    public func checkInvariants() throws(InvariantViolation) {
        try require(zip(order, order.dropFirst()).allSatisfy { $0 < $1 }, "order index not strictly sorted")
        var held = 0
        for (replica, timeline) in timelines {
            held += timeline.contiguous.count + timeline.pending.count
            try require((timeline.base == 0) == (timeline.baseStamp == nil), "base stamp without base")
            for (offset, change) in timeline.contiguous.enumerated() {
                try require(change.id == ChangeID(replica: replica, seq: timeline.base + UInt64(offset) + 1), "hole")
            }
            try require(timeline.pending.allSatisfy { $0.id.replica == replica }, "change filed under wrong replica")
            try require(
                timeline.pending.first.map { $0.id.seq > timeline.frontier + 1 } ?? true,
                "pending change should be contiguous"
            )
            let stamps = [timeline.baseStamp].compactMap { $0 } + (timeline.contiguous + timeline.pending).map(\.stamp)
            try require(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "stamps not increasing along timeline")
            let seqs = timeline.pending.map(\.id.seq)
            try require(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "pending not sorted by seq")
        }
        try require(held == order.count, "order index and timelines disagree on count")
        for position in order {
            try require(self[position.change]?.stamp == position.stamp, "order index names a missing change")
        }
    }
}
