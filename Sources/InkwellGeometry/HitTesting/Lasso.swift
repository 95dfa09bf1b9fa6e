/// A closed lasso polygon that selects the strokes it encloses.
///
/// Inside means a non-zero winding number, so a lasso drawn twice around, or crossing itself, still encloses
/// what the hand went around (even–odd would punch holes where the loops overlap). A stroke is selected when
/// at least ``Configuration/minimumInsideFraction`` of its visible curve, measured by length, is inside.
public struct Lasso: Sendable {
    /// How much of a stroke must be inside, and how finely curves are followed.
    public struct Configuration: Sendable {
        /// 0.9 by default: a hand-drawn lasso that clips the tail of a letter still takes the letter, while a
        /// stroke that merely crosses into the lasso is left out. 1 asks for every bit inside.
        public var minimumInsideFraction: Double
        /// Curves are followed as polylines within this many pixels.
        public var tolerance: Double

        public init(minimumInsideFraction: Double = 0.9, tolerance: Double = 0.5) {
            self.minimumInsideFraction = minimumInsideFraction
            self.tolerance = tolerance
        }
    }

    /// The polygon's corners; the last joins the first.
    public let polygon: [Point]
    public var configuration: Configuration
    /// The polygon's box; `nil` when it cannot enclose anything (under three points, or non-finite).
    public let bounds: Rect?

    public init(polygon: [Point], configuration: Configuration = Configuration()) {
        self.polygon = polygon
        self.configuration = configuration
        self.bounds = polygon.count >= 3 && polygon.allSatisfy(\.isFinite) ? Rect(bounding: polygon) : nil
    }

    /// Whether `point` is inside by the non-zero winding rule (points on an edge may go either way).
    ///
    /// - Complexity: O(m) for m corners.
    public func contains(_ point: Point) -> Bool {
        guard let bounds, bounds.contains(point) else { return false }
        var winding = 0
        var previous = polygon[polygon.count - 1]
        for corner in polygon {
            let side = (corner - previous).cross(point - previous)
            if previous.y <= point.y {
                if corner.y > point.y, side > 0 { winding += 1 }
            } else if corner.y <= point.y, side < 0 {
                winding -= 1
            }
            previous = corner
        }
        return winding != 0
    }

    /// Whether the lasso selects the visible part of `curve` (`nil`: the whole curve; pass `nil` for a visible dot).
    ///
    /// - Complexity: O(s · m · log m) for s flattened curve points and m corners.
    public func selects(_ curve: SmoothCurve, visible: [ParameterInterval]? = nil) -> Bool {
        guard let bounds, let curveBounds = curve.bounds, curveBounds.intersects(bounds) else { return false }
        if curve.segments.isEmpty { return curve.isDotVisible(visible) && contains(curve.points[0]) }
        let fraction = configuration.minimumInsideFraction
        var total = 0.0
        var inside = 0.0
        var lonePoints: [Point] = []
        for interval in visible ?? [ParameterInterval(0, curve.endParameter)] where !interval.isEmpty {
            let samples = curve.flattened(in: interval, tolerance: configuration.tolerance)
            guard let start = samples.first else { continue }
            lonePoints.append(start.point)
            for (a, b) in zip(samples, samples.dropFirst()) {
                let length = a.point.distance(to: b.point)
                guard length.isFinite else { return false }
                total += length
                inside += length * insideFraction(from: a.point, to: b.point)
            }
        }
        if total > 0 { return inside >= fraction * total }
        // Visible pieces of zero length (repeated samples): judge by their points.
        return !lonePoints.isEmpty && lonePoints.allSatisfy(contains)
    }
}
