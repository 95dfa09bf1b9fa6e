extension SmoothCurve {
    /// Points along the whole curve, close enough that the polyline through them is within `tolerance` of it.
    ///
    /// Every sample's integer parameter is included. A dot gives its one point; an empty curve gives nothing.
    /// - Complexity: O(n + m) for n points and m points returned.
    public func flattened(tolerance: Double) -> [(parameter: Double, point: Point)] {
        flattened(in: ParameterInterval(0, endParameter), tolerance: tolerance)
    }

    /// Points along the part of the curve over `interval` (both ends included), within `tolerance` of it.
    ///
    /// A non-finite or non-positive tolerance is treated as a quarter pixel.
    /// - Complexity: O(k + m) for k segments in the interval and m points returned.
    public func flattened(in interval: ParameterInterval, tolerance: Double) -> [(parameter: Double, point: Point)] {
        guard let first = points.first, !interval.lower.isNaN, !interval.upper.isNaN else { return [] }
        if segments.isEmpty { return interval.lower <= 0 && interval.upper >= 0 ? [(0, first)] : [] }
        let tolerance = tolerance.isFinite && tolerance > 0 ? tolerance : 0.25
        let lower = Swift.max(interval.lower, 0)
        let upper = Swift.min(interval.upper, endParameter)
        guard lower <= upper else { return [] }
        let firstIndex = Swift.min(Int(lower.rounded(.down)), segments.count - 1)
        let lastIndex = Swift.min(Swift.max(Int(upper.rounded(.up)) - 1, firstIndex), segments.count - 1)
        var output: [(parameter: Double, point: Point)] = [(lower, point(at: lower))]
        for index in firstIndex...lastIndex {
            let t0 = index == firstIndex ? lower - Double(index) : 0
            let t1 = index == lastIndex ? upper - Double(index) : 1
            guard t0 < t1 else { continue }
            let piece = t0 == 0 && t1 == 1 ? segments[index] : segments[index].piece(from: t0, to: t1)
            Self.flatten(piece, from: Double(index) + t0, to: Double(index) + t1, tolerance, depth: 0, into: &output)
        }
        return output
    }

    /// Appends the points after the start of `piece`, halving until its control points are within `tolerance` of
    /// its chord (then the curve is too, by the convex hull property).
    private static func flatten(
        _ piece: CubicBezier,
        from lower: Double,
        to upper: Double,
        _ tolerance: Double,
        depth: Int,
        into output: inout [(parameter: Double, point: Point)]
    ) {
        if depth >= 16 || !piece.isFinite || piece.flatness <= tolerance {
            output.append((upper, piece.end))
            return
        }
        let (left, right) = piece.split(at: 0.5)
        let middle = (lower + upper) / 2
        flatten(left, from: lower, to: middle, tolerance, depth: depth + 1, into: &output)
        flatten(right, from: middle, to: upper, tolerance, depth: depth + 1, into: &output)
    }
}
