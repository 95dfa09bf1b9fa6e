import Foundation

/// The ellipse closest to a loop: centred on its centroid, turned to its main axis, radii by least squares.
struct EllipseFit {
    var center: Point
    var radiusX: Double
    var radiusY: Double
    /// Radians, in `[-π/4, π/4]`: the larger radius is along whichever axis the ellipse lies closer to.
    var rotation: Double
    /// Mean distance of the loop's samples from the ellipse, as a fraction of the perimeter.
    var error: Double

    /// `nil` when the loop is degenerate (a back-and-forth scribble, all points on a line).
    init?(_ loop: Loop) {
        let points = loop.points
        let moments = Moments(points)
        let (center, xx, yy, xy) = (moments.center, moments.xx, moments.yy, moments.xy)
        var rotation = atan2(2 * xy, xx - yy) / 2
        if rotation > Double.pi / 4 { rotation -= Double.pi / 2 }
        if rotation < -Double.pi / 4 { rotation += Double.pi / 2 }
        let axis = Point(cos(rotation), sin(rotation))
        // Least squares for u²/a² + v²/b² = 1, linear in A = 1/a² and B = 1/b².
        var uuuu = 0.0
        var uuvv = 0.0
        var vvvv = 0.0
        var uu = 0.0
        var vv = 0.0
        for point in points {
            let d = point - center
            let u = d.dot(axis)
            let v = axis.cross(d)
            uuuu += u * u * u * u
            uuvv += u * u * v * v
            vvvv += v * v * v * v
            uu += u * u
            vv += v * v
        }
        let determinant = uuuu * vvvv - uuvv * uuvv
        guard determinant > 0 else { return nil }
        let a = (uu * vvvv - vv * uuvv) / determinant
        let b = (vv * uuuu - uu * uuvv) / determinant
        guard a > 0, b > 0 else { return nil }
        var error = 0.0
        for point in points {
            let d = point - center
            let u = d.dot(axis)
            let v = axis.cross(d)
            let scale = (u * u * a + v * v * b).squareRoot()
            let length = d.length
            error += scale > 0 ? abs(length - length / scale) : 1 / max(a, b).squareRoot()
        }
        self.center = center
        self.radiusX = 1 / a.squareRoot()
        self.radiusY = 1 / b.squareRoot()
        self.rotation = rotation
        self.error = error / Double(points.count) / loop.perimeter
    }
}
