import Foundation

extension ShapeRecognizer {
    /// The rectangle closest to a four-edged fit: edge directions averaged modulo 90°, each side placed through
    /// the middle of its drawn edge. Corners follow the drawn ones; `nil` if the edges do not alternate.
    func rectangle(from fit: PolygonFit) -> [Point]? {
        var sum = Point.zero
        for edge in fit.edges {
            // The direction's angle times four, so edges 90° apart agree.
            let double = Point(
                edge.direction.x * edge.direction.x - edge.direction.y * edge.direction.y,
                2 * edge.direction.x * edge.direction.y
            )
            sum = sum + Point(double.x * double.x - double.y * double.y, 2 * double.x * double.y)
        }
        var rotation = atan2(sum.y, sum.x) / 4
        if abs(rotation) <= radians(configuration.axisSnapAngle) { rotation = 0 }
        let u = rotation == 0 ? Point(1, 0) : Point(cos(rotation), sin(rotation))
        let v = Point(-u.y, u.x)
        // Which edges are sides of constant u (the others of constant v).
        let constantU = fit.edges.map { abs($0.direction.dot(u)) < abs($0.direction.dot(v)) }
        guard constantU[0] == constantU[2], constantU[1] == constantU[3], constantU[0] != constantU[1] else {
            return nil
        }
        return fit.vertices.indices.map { index in
            let before = fit.edges[(index + 3) % 4]
            let after = fit.edges[index]
            let (sideU, sideV) = constantU[index] ? (after, before) : (before, after)
            return u * sideU.center.dot(u) + v * sideV.center.dot(v)
        }
    }

    /// The rhombus with horizontal and vertical diagonals closest to a four-edged fit; `nil` unless the fit's
    /// diagonals lie within `diamondAxisTolerance` of the axes.
    func diamond(from fit: PolygonFit) -> [Point]? {
        let corners = fit.vertices
        let tolerance = radians(configuration.diamondAxisTolerance)
        for first in 0..<2 {
            let a = corners[first]
            let b = corners[first + 2]
            let c = corners[first + 1]
            let d = corners[(first + 3) % 4]
            // a–b must be the vertical diagonal, c–d the horizontal one.
            guard atan2(abs(b.x - a.x), abs(b.y - a.y)) <= tolerance,
                atan2(abs(d.y - c.y), abs(d.x - c.x)) <= tolerance
            else { continue }
            let center = Point((c.x + d.x) / 2, (a.y + b.y) / 2)
            var result = [Point](repeating: center, count: 4)
            result[first] = Point(center.x, a.y)
            result[first + 2] = Point(center.x, b.y)
            result[first + 1] = Point(c.x, center.y)
            result[(first + 3) % 4] = Point(d.x, center.y)
            return result
        }
        return nil
    }
}
