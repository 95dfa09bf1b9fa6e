import Foundation

extension SmoothCurve {
    /// Catmull–Rom through every point, each span written as a cubic Bézier.
    ///
    /// For the span p1 → p2 with neighbours p0 and p3 and knot gaps d = |Δp|^alpha (Yuksel et al., 2011):
    /// `c1 = (d1² p2 − d2² p0 + (2d1² + 3d1d2 + d2²) p1) / (3d1(d1 + d2))`, and `c2` symmetrically. A
    /// missing or coincident neighbour is replaced by the mirror image of the far end, which gives
    /// `c1 = (2p1 + p2) / 3`: the curve leaves the end towards the next sample.
    /// - Complexity: O(n).
    static func catmullRomSegments(_ points: [Point], alpha: Double) -> [CubicBezier] {
        guard points.count > 1 else { return [] }
        let gaps = (0..<(points.count - 1)).map { knotGap(points[$0], points[$0 + 1], alpha: alpha) }
        return (0..<(points.count - 1)).map { i in
            let p1 = points[i]
            let p2 = points[i + 1]
            let d2 = gaps[i]
            if d2 == 0 { return CubicBezier(point: p1) }
            let control1: Point
            if i > 0, gaps[i - 1] > 0 {
                control1 = tangentControl(near: p1, far: p2, behind: points[i - 1], dNear: gaps[i - 1], dFar: d2)
            } else {
                control1 = Point((2 * p1.x + p2.x) / 3, (2 * p1.y + p2.y) / 3)
            }
            let control2: Point
            if i + 2 < points.count, gaps[i + 1] > 0 {
                control2 = tangentControl(near: p2, far: p1, behind: points[i + 2], dNear: gaps[i + 1], dFar: d2)
            } else {
                control2 = Point((2 * p2.x + p1.x) / 3, (2 * p2.y + p1.y) / 3)
            }
            return CubicBezier(start: p1, control1: control1, control2: control2, end: p2)
        }
    }

    /// |b − a|^alpha; for 0.5 as two square roots so JavaScript gets the same double (`Math.pow` is not exact).
    private static func knotGap(_ a: Point, _ b: Point, alpha: Double) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let squared = dx * dx + dy * dy
        if alpha == 0.5 { return squared.squareRoot().squareRoot() }
        if alpha == 0 { return squared > 0 ? 1 : 0 }
        return pow(squared.squareRoot(), alpha)
    }

    /// The control point next to `near` on the span `near` → `far`, `behind` being the sample before `near`.
    private static func tangentControl(
        near: Point,
        far: Point,
        behind: Point,
        dNear: Double,
        dFar: Double
    ) -> Point {
        let a = dNear * dNear
        let b = dFar * dFar
        let m = 2 * a + 3 * dNear * dFar + b
        let denominator = 3 * dNear * (dNear + dFar)
        return Point(
            (a * far.x - b * behind.x + m * near.x) / denominator,
            (a * far.y - b * behind.y + m * near.y) / denominator
        )
    }
}
