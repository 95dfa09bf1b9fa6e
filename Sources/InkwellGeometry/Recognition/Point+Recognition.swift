import Foundation

extension Point {
    /// The signed angle in radians from this vector to `other`, in `(-π, π]`; positive turns clockwise on screen.
    func angle(to other: Point) -> Double { atan2(cross(other), dot(other)) }

    /// Distance to the segment from `start` to `end`.
    func distance(toSegment start: Point, _ end: Point) -> Double {
        let edge = end - start
        let lengthSquared = edge.lengthSquared
        guard lengthSquared > 0 else { return distance(to: start) }
        let t = min(1, max(0, (self - start).dot(edge) / lengthSquared))
        return distance(to: start + edge * t)
    }

    /// Distance to the closed polygon through `corners`.
    func distance(toPolygon corners: [Point]) -> Double {
        var best = Double.infinity
        for index in corners.indices {
            best = min(best, distance(toSegment: corners[index], corners[(index + 1) % corners.count]))
        }
        return best
    }
}

/// Degrees to radians.
func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }

/// The unit vectors of the eight directions a line snaps to, exact so that snapped lines are exactly straight.
let compassDirections: [Point] = {
    let half = 0.5.squareRoot()
    return [
        Point(1, 0), Point(half, half), Point(0, 1), Point(-half, half),
        Point(-1, 0), Point(-half, -half), Point(0, -1), Point(half, -half),
    ]
}()

/// `direction` (a unit vector) turned onto the nearest of the eight compass directions if it lies within
/// `tolerance` radians of it.
func snapped(_ direction: Point, within tolerance: Double) -> Point {
    for compass in compassDirections where abs(compass.angle(to: direction)) <= tolerance {
        return compass
    }
    return direction
}

/// The corners rotated so the one nearest `start` comes first, keeping their order.
func rotated(_ corners: [Point], toStartNearest start: Point) -> [Point] {
    guard !corners.isEmpty else { return corners }
    var first = 0
    for index in corners.indices where corners[index].distance(to: start) < corners[first].distance(to: start) {
        first = index
    }
    return Array(corners[first...] + corners[..<first])
}
