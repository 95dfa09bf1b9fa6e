extension SmoothCurve {
    /// The parts of each segment that `visible` shows, as segment-local parameter ranges in order.
    ///
    /// `nil` means the whole curve. Intervals are clamped to the curve; NaN and empty ones show nothing.
    /// - Complexity: O(v + k) for v intervals covering k segments.
    func visibleRanges(_ visible: [ParameterInterval]?) -> [(index: Int, lower: Double, upper: Double)] {
        guard !segments.isEmpty else { return [] }
        let intervals = visible ?? [ParameterInterval(0, endParameter)]
        var ranges: [(index: Int, lower: Double, upper: Double)] = []
        for interval in intervals where !interval.lower.isNaN && !interval.upper.isNaN {
            let lower = Swift.max(interval.lower, 0)
            let upper = Swift.min(interval.upper, endParameter)
            guard lower < upper else { continue }
            let firstIndex = Swift.min(Int(lower.rounded(.down)), segments.count - 1)
            let lastIndex = Swift.min(Swift.max(Int(upper.rounded(.up)) - 1, firstIndex), segments.count - 1)
            for index in firstIndex...lastIndex {
                let t0 = index == firstIndex ? lower - Double(index) : 0
                let t1 = index == lastIndex ? upper - Double(index) : 1
                if t0 < t1 { ranges.append((index, t0, t1)) }
            }
        }
        return ranges
    }

    /// Whether a dot (one-point curve) shows: always for `nil`, else when an interval covers parameter 0.
    ///
    /// `IntervalSet.gaps(in: 0, 0)` is always empty, so callers pass `nil` for a dot that is not erased.
    func isDotVisible(_ visible: [ParameterInterval]?) -> Bool {
        guard let visible else { return true }
        return visible.contains { $0.contains(0) }
    }
}
