/// The centre and second moments of a set of points: what line and ellipse fits are built from.
///
/// Sums in point order, with the same operations as before it was shared, so every fit (and the
/// browser's port) computes bit-identical values.
struct Moments {
    let center: Point
    let xx: Double
    let yy: Double
    let xy: Double

    init(_ points: some Collection<Point>) {
        var sum = Point.zero
        for point in points { sum = sum + point }
        let center = sum / Double(points.count)
        var xx = 0.0
        var yy = 0.0
        var xy = 0.0
        for point in points {
            let d = point - center
            xx += d.x * d.x
            yy += d.y * d.y
            xy += d.x * d.y
        }
        self.center = center
        self.xx = xx
        self.yy = yy
        self.xy = xy
    }
}
