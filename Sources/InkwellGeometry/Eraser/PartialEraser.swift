/// Cuts from a stroke the parts that an eraser circle swept along a path covers.
///
/// The result is in the stroke's parameter space, ready for an `erase(stroke, intervals)` change: a parameter is
/// cut when its curve point is within ``radius`` of the eraser path. Each interval end lies within 0.04 px of
/// the swept area's edge (leaf pieces of 0.02 px, then bisection to 1e-12 in parameter).
public struct PartialEraser: Sendable {
    /// The eraser circle's radius in board pixels.
    public var radius: Double

    public init(radius: Double) {
        self.radius = radius
    }

    /// The sorted, disjoint parameter intervals of `curve` within ``radius`` of `path`.
    ///
    /// A one-point `path` is a tap. A dot (one-point curve) is cut as `[0, 1)` when touched. A NaN or infinite
    /// coordinate or radius, a negative radius, or an empty path or curve cuts nothing; a curve segment with a
    /// non-finite control point is skipped.
    /// - Complexity: O(n · m) box tests for n curve segments and m path segments, plus
    ///   O(log(L / 0.02)) distance evaluations per boundary for segments near the path.
    public func cut(_ curve: SmoothCurve, along path: [Point]) -> [ParameterInterval] {
        guard let swept = EraserPath(points: path, radius: radius), let first = curve.points.first else { return [] }
        if curve.segments.isEmpty {
            let distance = swept.distance(from: first, segments: Array(0..<swept.segmentCount))
            return distance <= radius ? [ParameterInterval(0, 1)] : []
        }
        var cuts: [ParameterInterval] = []
        for (index, segment) in curve.segments.enumerated() {
            let box = segment.controlBounds
            guard segment.isFinite, box.intersects(swept.reach) else { continue }
            let nearby = swept.segments(near: box)
            guard !nearby.isEmpty else { continue }
            var coverage = SegmentSweep.Coverage()
            SegmentSweep(path: swept, segment: segment, nearby: nearby)
                .sweep(segment, from: 0, to: 1, depth: 0, into: &coverage)
            for range in coverage.ranges where range.lower < range.upper {
                let lower = Double(index) + range.lower
                let upper = Double(index) + range.upper
                if let last = cuts.last, lower <= last.upper {
                    cuts[cuts.count - 1].upper = Swift.max(last.upper, upper)
                } else {
                    cuts.append(ParameterInterval(lower, upper))
                }
            }
        }
        return cuts
    }
}
