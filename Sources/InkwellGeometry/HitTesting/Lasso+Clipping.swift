extension Lasso {
    /// The fraction of the segment `a`–`b` inside the lasso: cut where it crosses an edge, each piece judged
    /// by its middle.
    ///
    /// - Complexity: O(m log m) for m corners.
    func insideFraction(from a: Point, to b: Point) -> Double {
        let direction = b - a
        var cuts: [Double] = [0, 1]
        var previous = polygon[polygon.count - 1]
        for corner in polygon {
            let edge = corner - previous
            let denominator = direction.cross(edge)
            if denominator != 0 {
                let offset = previous - a
                let t = offset.cross(edge) / denominator
                let u = offset.cross(direction) / denominator
                if t > 0, t < 1, u >= 0, u <= 1 { cuts.append(t) }
            }
            previous = corner
        }
        cuts.sort()
        var inside = 0.0
        for (lower, upper) in zip(cuts, cuts.dropFirst()) where upper > lower {
            if contains(a.interpolated(to: b, (lower + upper) / 2)) { inside += upper - lower }
        }
        return inside
    }
}
