/// The straight line closest to a set of points (total least squares): their centroid and main direction.
struct LineFit {
    var center: Point
    /// A unit vector.
    var direction: Point

    /// `nil` when the points do not define a direction (fewer than two distinct points).
    ///
    /// The direction is the covariance matrix's main eigenvector, found with a square root only, so the browser's
    /// port computes the same value.
    init?(_ points: some Collection<Point>) {
        guard !points.isEmpty else { return nil }
        let moments = Moments(points)
        let (center, xx, yy, xy) = (moments.center, moments.xx, moments.yy, moments.xy)
        let largest = (xx + yy + ((xx - yy) * (xx - yy) + 4 * xy * xy).squareRoot()) / 2
        let first = Point(xy, largest - xx)
        let second = Point(largest - yy, xy)
        let vector = first.lengthSquared >= second.lengthSquared ? first : second
        let length = vector.length
        guard length > 0 else {
            guard xx > 0 || yy > 0 else { return nil }
            self.init(center: center, direction: xx >= yy ? Point(1, 0) : Point(0, 1))
            return
        }
        self.init(center: center, direction: vector / length)
    }

    init(center: Point, direction: Point) {
        self.center = center
        self.direction = direction
    }

    /// Signed distance along the line from the center.
    func along(_ point: Point) -> Double { (point - center).dot(direction) }

    /// Signed distance from the line, positive on the clockwise side (y down).
    func across(_ point: Point) -> Double { direction.cross(point - center) }

    /// Where the two lines cross; `nil` when they are within about 6° of parallel.
    func intersection(with other: LineFit) -> Point? {
        let denominator = direction.cross(other.direction)
        guard abs(denominator) > 0.1 else { return nil }
        let t = (other.center - center).cross(other.direction) / denominator
        return center + direction * t
    }
}
