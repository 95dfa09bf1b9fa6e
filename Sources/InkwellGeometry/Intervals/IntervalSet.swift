/// A union of parameter intervals, kept as sorted, disjoint, non-touching intervals.
///
/// Union and difference use only comparisons, never arithmetic, so every implementation (this one,
/// the browser's) computes bit-identical results from the same inputs.
public struct IntervalSet: Hashable, Sendable {
    /// Sorted by `lower`; each interval is non-empty and ends strictly before the next begins.
    public private(set) var intervals: [ParameterInterval] = []

    public init() {}

    public init(_ intervals: some Sequence<ParameterInterval>) {
        for interval in intervals { insert(interval) }
    }

    public var isEmpty: Bool { intervals.isEmpty }

    /// Adds `interval`, merging it with every interval it overlaps or touches.
    ///
    /// - Complexity: O(n) for n intervals held.
    public mutating func insert(_ interval: ParameterInterval) {
        guard !interval.isEmpty else { return }
        var lower = interval.lower
        var upper = interval.upper
        var kept: [ParameterInterval] = []
        kept.reserveCapacity(intervals.count + 1)
        var placed = false
        for existing in intervals {
            if existing.upper < lower {
                kept.append(existing)
            } else if upper < existing.lower {
                if !placed {
                    kept.append(ParameterInterval(lower, upper))
                    placed = true
                }
                kept.append(existing)
            } else {
                lower = min(lower, existing.lower)
                upper = max(upper, existing.upper)
            }
        }
        if !placed { kept.append(ParameterInterval(lower, upper)) }
        intervals = kept
    }

    public mutating func formUnion(_ other: IntervalSet) {
        for interval in other.intervals { insert(interval) }
    }

    /// Whether `parameter` is covered.
    ///
    /// - Complexity: O(log n).
    public func contains(_ parameter: Double) -> Bool {
        var low = 0
        var high = intervals.count
        while low < high {
            let middle = (low + high) / 2
            if intervals[middle].upper <= parameter { low = middle + 1 } else { high = middle }
        }
        return low < intervals.count && intervals[low].contains(parameter)
    }

    /// The parts of `[start, end]` that no interval covers, each of positive length, in order.
    ///
    /// This is what stays visible of a stroke spanning `start...end` once these intervals are erased.
    public func gaps(in start: Double, _ end: Double) -> [ParameterInterval] {
        var pieces: [ParameterInterval] = []
        var cursor = start
        for interval in intervals {
            if interval.upper <= cursor { continue }
            if interval.lower >= end { break }
            if interval.lower > cursor { pieces.append(ParameterInterval(cursor, interval.lower)) }
            cursor = max(cursor, interval.upper)
        }
        if cursor < end { pieces.append(ParameterInterval(cursor, end)) }
        return pieces
    }
}
