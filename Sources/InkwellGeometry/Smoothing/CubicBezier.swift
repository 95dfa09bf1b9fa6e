/// One cubic Bézier segment: what the renderer, the SVG exporter and the eraser all draw and measure.
///
/// Evaluation is de Casteljau with `(1 - t) * a + t * b` at each step, so `t = 0` and `t = 1` give the
/// end points bit for bit, and a JavaScript port doing the same steps gets the same doubles.
public struct CubicBezier: Hashable, Sendable {
    public var start: Point
    public var control1: Point
    public var control2: Point
    public var end: Point

    public init(start: Point, control1: Point, control2: Point, end: Point) {
        self.start = start
        self.control1 = control1
        self.control2 = control2
        self.end = end
    }

    /// A segment that stays at one point: a dot, or two equal samples.
    public init(point: Point) {
        self.init(start: point, control1: point, control2: point, end: point)
    }

    /// The point at `t` in `0...1`.
    ///
    /// - Complexity: O(1).
    public func point(at t: Double) -> Point {
        blossom(t, t, t)
    }

    /// The two halves before and after `t`; together they trace exactly this curve.
    ///
    /// - Complexity: O(1).
    public func split(at t: Double) -> (CubicBezier, CubicBezier) {
        let a = Self.lerp(start, control1, t)
        let b = Self.lerp(control1, control2, t)
        let c = Self.lerp(control2, end, t)
        let ab = Self.lerp(a, b, t)
        let bc = Self.lerp(b, c, t)
        let middle = Self.lerp(ab, bc, t)
        return (
            CubicBezier(start: start, control1: a, control2: ab, end: middle),
            CubicBezier(start: middle, control1: bc, control2: c, end: end)
        )
    }

    /// The part of the curve between `t0` and `t1`, with ends equal to `point(at: t0)` and `point(at: t1)`.
    ///
    /// Uses the polar form (blossom) so that a piece cut from the middle is as exact as a split.
    /// - Complexity: O(1).
    public func piece(from t0: Double, to t1: Double) -> CubicBezier {
        CubicBezier(
            start: blossom(t0, t0, t0),
            control1: blossom(t0, t0, t1),
            control2: blossom(t0, t1, t1),
            end: blossom(t1, t1, t1)
        )
    }

    /// The box around the four control points, which holds the whole curve (convex hull property).
    public var controlBounds: Rect {
        var box = Rect(minX: start.x, minY: start.y, maxX: start.x, maxY: start.y)
        box.include(control1)
        box.include(control2)
        box.include(end)
        return box
    }

    /// Whether every control point is finite.
    public var isFinite: Bool { start.isFinite && control1.isFinite && control2.isFinite && end.isFinite }

    /// How far the control points stray from the chord: a bound on how far the curve does.
    var flatness: Double {
        Swift.max(
            EraserPath.squaredDistance(from: control1, toSegment: start, end),
            EraserPath.squaredDistance(from: control2, toSegment: start, end)
        ).squareRoot()
    }

    /// The polar form: one de Casteljau level at each of `u`, `v`, `w`.
    func blossom(_ u: Double, _ v: Double, _ w: Double) -> Point {
        let a = Self.lerp(start, control1, u)
        let b = Self.lerp(control1, control2, u)
        let c = Self.lerp(control2, end, u)
        let ab = Self.lerp(a, b, v)
        let bc = Self.lerp(b, c, v)
        return Self.lerp(ab, bc, w)
    }

    /// Exact at both ends: `t = 0` gives `a` and `t = 1` gives `b`, bit for bit.
    static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point {
        let s = 1 - t
        return Point(s * a.x + t * b.x, s * a.y + t * b.y)
    }
}
