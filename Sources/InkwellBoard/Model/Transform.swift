public import InkwellGeometry

/// An affine transform `x' = a·x + c·y + tx, y' = b·x + d·y + ty` (SVG's `matrix(a b c d tx ty)`).
///
/// Moving, scaling or rotating a stroke sets this attribute; its points never change, so erase
/// intervals and appends stay valid.
public struct Transform: Hashable, Sendable {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ dx: Double, _ dy: Double) -> Transform {
        Transform(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
    }

    public var isIdentity: Bool { self == .identity }

    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }

    /// This transform, then `outer`: the matrix `outer × self`. The sums are made in the order the page's
    /// `compose` (Web/js/model/selection-edits.js) makes them, so both give the same doubles.
    public func concatenating(_ outer: Transform) -> Transform {
        Transform(
            a: outer.a * a + outer.c * b,
            b: outer.b * a + outer.d * b,
            c: outer.a * c + outer.c * d,
            d: outer.b * c + outer.d * d,
            tx: outer.a * tx + outer.c * ty + outer.tx,
            ty: outer.b * tx + outer.d * ty + outer.ty
        )
    }

    public func apply(to point: Point) -> Point {
        Point(a * point.x + c * point.y + tx, b * point.x + d * point.y + ty)
    }
}
