/// The changes of one replica held by a ``ChangeLog``: a contiguous run after the baseline, then
/// any changes that arrived ahead of a gap.
@usableFromInline
struct Timeline<Payload> {
    /// Seqs up to `base` were compacted into a baseline.
    @usableFromInline var base: UInt64 = 0
    /// The stamp of the change at `base`, if any was compacted.
    @usableFromInline var baseStamp: Stamp?
    /// Changes `base + 1 ... frontier`, in seq order.
    @usableFromInline var contiguous: [Change<Payload>] = []
    /// Changes past a gap, sorted by seq; every seq is greater than `frontier + 1`.
    @usableFromInline var pending: [Change<Payload>] = []

    @inlinable init() {}

    init(base: UInt64, baseStamp: Stamp?) {
        self.base = base
        self.baseStamp = baseStamp
    }

    /// The highest seq up to which every change is present or compacted.
    @inlinable var frontier: UInt64 { base + UInt64(contiguous.count) }

    /// The stamp of the change at ``frontier``, `nil` if there is none yet.
    @inlinable var frontierStamp: Stamp? { contiguous.last?.stamp ?? baseStamp }

    /// What inserting one change did.
    @usableFromInline enum Outcome {
        case inserted
        case duplicate
        case alreadyCompacted
    }

    @inlinable subscript(seq: UInt64) -> Change<Payload>? {
        if seq > base, seq <= frontier { return contiguous[Int(seq - base - 1)] }
        guard let index = pendingIndex(of: seq) else { return nil }
        return pending[index]
    }

    /// - Complexity: O(1) for the next seq; O(pending) when filling or widening a gap.
    @inlinable mutating func insert(_ change: Change<Payload>) throws(ChangeLogError) -> Outcome {
        let seq = change.id.seq
        if seq <= base { return .alreadyCompacted }
        if let existing = self[seq] {
            guard existing.stamp == change.stamp else { throw .conflictingDuplicate(change.id) }
            return .duplicate
        }
        guard stampFits(change.stamp, at: seq) else { throw .stampNotMonotonic(change.id) }
        if seq == frontier + 1 {
            contiguous.append(change)
            drainPending()
        } else {
            pending.insert(change, at: pendingInsertionPoint(for: seq))
        }
        return .inserted
    }

    /// Whether `stamp` lies strictly between the stamps of the nearest present changes around `seq`.
    @inlinable func stampFits(_ stamp: Stamp, at seq: UInt64) -> Bool {
        let insertion = pendingInsertionPoint(for: seq)
        let before = insertion > 0 ? pending[insertion - 1].stamp : frontierStamp
        let after = insertion < pending.count ? pending[insertion].stamp : nil
        return (before.map { $0 < stamp } ?? true) && (after.map { stamp < $0 } ?? true)
    }

    @inlinable mutating func drainPending() {
        var drained = 0
        while drained < pending.count, pending[drained].id.seq == frontier + 1 {
            contiguous.append(pending[drained])
            drained += 1
        }
        pending.removeFirst(drained)
    }

    @inlinable func pendingIndex(of seq: UInt64) -> Int? {
        let index = pendingInsertionPoint(for: seq)
        return index < pending.count && pending[index].id.seq == seq ? index : nil
    }

    /// The first index in `pending` whose seq is not below `seq`.
    @inlinable func pendingInsertionPoint(for seq: UInt64) -> Int {
        var low = 0
        var high = pending.count
        while low < high {
            let middle = (low + high) / 2
            if pending[middle].id.seq < seq { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Seq ranges below the highest present seq that have not arrived.
    var gaps: [ClosedRange<UInt64>] {
        var result: [ClosedRange<UInt64>] = []
        // Wraps only past `UInt64.max`, the last seq: then no change is pending after it to compare.
        var expected = frontier &+ 1
        for change in pending {
            if change.id.seq > expected { result.append(expected...(change.id.seq - 1)) }
            expected = change.id.seq &+ 1
        }
        return result
    }

    /// Drops the contiguous changes stamped at or before `cutoff` into the baseline.
    mutating func compact(through cutoff: Stamp) {
        let count = contiguous.prefix { $0.stamp <= cutoff }.count
        guard count > 0 else { return }
        base += UInt64(count)
        baseStamp = contiguous[count - 1].stamp
        contiguous.removeFirst(count)
    }
}
extension Timeline: Sendable where Payload: Sendable {}
