extension SmoothCurve {
    /// The exact sub-curve over `interval`, one Bézier per segment it touches, end segments cut at the
    /// fractional parameters: what a renderer draws for one visible piece.
    ///
    /// The interval is clamped to `0...endParameter`. The first Bézier starts at `point(at: lower)` and the last
    /// ends at `point(at: upper)`, bit for bit. A dot gives one Bézier that stays at its point when the interval
    /// covers parameter 0 (round caps draw it as a dot). An empty or NaN interval gives nothing.
    /// - Complexity: O(k) for k segments in the interval.
    public func beziers(in interval: ParameterInterval) -> [CubicBezier] {
        guard let first = points.first, !interval.lower.isNaN, !interval.upper.isNaN else { return [] }
        if segments.isEmpty { return interval.contains(0) ? [CubicBezier(point: first)] : [] }
        let lower = Swift.max(interval.lower, 0)
        let upper = Swift.min(interval.upper, endParameter)
        guard lower < upper else { return [] }
        let firstIndex = Swift.min(Int(lower.rounded(.down)), segments.count - 1)
        let lastIndex = Swift.min(Swift.max(Int(upper.rounded(.up)) - 1, firstIndex), segments.count - 1)
        var pieces: [CubicBezier] = []
        pieces.reserveCapacity(lastIndex - firstIndex + 1)
        for index in firstIndex...lastIndex {
            let t0 = index == firstIndex ? lower - Double(index) : 0
            let t1 = index == lastIndex ? upper - Double(index) : 1
            guard t0 < t1 else { continue }
            pieces.append(t0 == 0 && t1 == 1 ? segments[index] : segments[index].piece(from: t0, to: t1))
        }
        return pieces
    }
}
