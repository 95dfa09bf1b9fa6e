/// A stroke's sampled pen points joined by a smooth interpolating curve: centripetal Catmull–Rom as cubic Béziers.
///
/// Segment `i` runs from `points[i]` to `points[i + 1]`, so parameter `i + f` means the same thing to the
/// board, the eraser and every renderer. Centripetal Catmull–Rom was chosen over uniform Catmull–Rom and a
/// midpoint B-spline by measurement on real strokes: it passes through every sample and never forms a cusp
/// or a loop inside a segment (see BENCHMARKS.md, "Smoothing, eraser and spatial index").
public struct SmoothCurve: Sendable {
    /// The sampled pen points, as given.
    public let points: [Point]
    /// `segments[i]` draws the curve from `points[i]` to `points[i + 1]`.
    public let segments: [CubicBezier]

    /// - Complexity: O(n) for n points.
    public init(points: [Point]) {
        self.init(points: points, alpha: 0.5)
    }

    /// `alpha` 0 is uniform, 0.5 centripetal, 1 chordal Catmull–Rom; only 0.5 is used outside measurements.
    package init(points: [Point], alpha: Double) {
        self.points = points
        self.segments = Self.catmullRomSegments(points, alpha: alpha)
    }

    public var pointCount: Int { points.count }

    /// The last parameter, `n` for n + 1 points; 0 for a dot or an empty curve.
    public var endParameter: Double { Double(Swift.max(points.count - 1, 0)) }

    /// The box holding the whole curve (its control points), or `nil` when it has no points.
    ///
    /// - Complexity: O(n).
    public var bounds: Rect? {
        guard let first = points.first else { return nil }
        var box = Rect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        for segment in segments { box = box.union(segment.controlBounds) }
        return box
    }

    /// The Bézier of segment `index`, from `points[index]` to `points[index + 1]`.
    public func segment(_ index: Int) -> CubicBezier {
        segments[index]
    }

    /// The point at `parameter`, clamped to `0...endParameter`; integer parameters give the samples exactly.
    ///
    /// An empty curve or a NaN parameter gives a NaN point.
    /// - Complexity: O(1).
    public func point(at parameter: Double) -> Point {
        guard let first = points.first, !parameter.isNaN else { return Point(.nan, .nan) }
        guard !segments.isEmpty else { return first }
        let clamped = Swift.min(Swift.max(parameter, 0), endParameter)
        let index = Swift.min(Int(clamped.rounded(.down)), segments.count - 1)
        return segments[index].point(at: clamped - Double(index))
    }
}
