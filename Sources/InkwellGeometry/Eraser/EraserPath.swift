/// The eraser's centre line: a polyline (one point for a tap) swept by a circle of some radius.
///
/// The swept area is every point within `radius` of the polyline. Distances use only `+ - * /` and one
/// square root, so the JavaScript client computes the same doubles.
struct EraserPath {
    let points: [Point]
    let radius: Double
    /// The polyline's box grown by the radius: nothing outside it can be touched.
    let reach: Rect

    /// `nil` when there is nothing to sweep: no points, a non-finite point, or a radius that is negative or infinite.
    init?(points: [Point], radius: Double) {
        guard radius.isFinite, radius >= 0, let box = Rect(bounding: points), points.allSatisfy(\.isFinite) else {
            return nil
        }
        self.points = points
        self.radius = radius
        self.reach = box.expanded(by: radius)
    }

    /// Number of polyline segments; a tap counts as one segment of length zero.
    var segmentCount: Int { Swift.max(points.count - 1, 1) }

    /// The indices of the segments whose swept box meets `box`.
    ///
    /// - Complexity: O(m) for m path segments.
    func segments(near box: Rect) -> [Int] {
        var found: [Int] = []
        for index in 0..<segmentCount {
            let a = points[index]
            let b = points[Swift.min(index + 1, points.count - 1)]
            let segmentBox = Rect(
                minX: Swift.min(a.x, b.x) - radius,
                minY: Swift.min(a.y, b.y) - radius,
                maxX: Swift.max(a.x, b.x) + radius,
                maxY: Swift.max(a.y, b.y) + radius
            )
            if segmentBox.intersects(box) { found.append(index) }
        }
        return found
    }

    /// The distance from `point` to the nearest of the given segments.
    ///
    /// - Complexity: O(k) for k segments.
    func distance(from point: Point, segments: [Int]) -> Double {
        var best = Double.infinity
        for index in segments {
            let squared = Self.squaredDistance(
                from: point,
                toSegment: points[index],
                points[Swift.min(index + 1, points.count - 1)]
            )
            if squared < best { best = squared }
        }
        return best.squareRoot()
    }

    /// Squared distance from `p` to the segment `a`–`b` (to `a` when they coincide).
    static func squaredDistance(from p: Point, toSegment a: Point, _ b: Point) -> Double {
        let abx = b.x - a.x
        let aby = b.y - a.y
        let apx = p.x - a.x
        let apy = p.y - a.y
        let lengthSquared = abx * abx + aby * aby
        var t = 0.0
        if lengthSquared > 0 {
            t = (apx * abx + apy * aby) / lengthSquared
            if t < 0 { t = 0 } else if t > 1 { t = 1 }
        }
        let dx = apx - t * abx
        let dy = apy - t * aby
        return dx * dx + dy * dy
    }
}
