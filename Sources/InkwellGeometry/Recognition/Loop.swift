/// A closed stroke resampled evenly around its outline, with the turn measured at every sample.
struct Loop {
    var points: [Point]
    var perimeter: Double
    /// The turn in radians at each sample over `window` samples either side; positive turns clockwise on screen.
    var turns: [Double]
    /// How far the loop's direction turns in all: ±2π for a simple loop, ±4π for a star, 0 for a figure eight.
    var totalTurning: Double
    /// Indices of the corners, in order around the loop.
    var corners: [Int]

    init(_ outline: [Point], configuration: ShapeRecognizer.Configuration) {
        points = outline.resampled(count: configuration.loopSampleCount, closed: true)
        perimeter = points.pathLength(closed: true)
        let count = points.count
        let window = configuration.cornerWindow
        turns = (0..<count).map { [points] index in
            let before = points[(index - window + count) % count]
            let after = points[(index + window) % count]
            return (points[index] - before).angle(to: after - points[index])
        }
        // Measured along the drawn stroke, with tangents over `window` samples, and closed by the shortest turn
        // from the last tangent to the first: the closing segment may point anywhere when the ends overlap.
        let drawn = outline.resampled(count: count)
        let tangents = (0..<(count - window)).map { drawn[$0 + window] - drawn[$0] }
        var total = tangents[tangents.count - 1].angle(to: tangents[0])
        for index in 1..<tangents.count { total += tangents[index - 1].angle(to: tangents[index]) }
        totalTurning = total
        let threshold = radians(configuration.cornerAngle)
        corners = (0..<count).filter { [turns] index in
            let turn = abs(turns[index])
            guard turn >= threshold else { return false }
            for offset in 1...window {
                if abs(turns[(index - offset + count) % count]) >= turn { return false }
                if abs(turns[(index + offset) % count]) > turn { return false }
            }
            return true
        }
    }

    /// The `count` strongest corners, in order around the loop; `nil` if there are fewer.
    func strongestCorners(_ count: Int) -> [Int]? {
        guard corners.count >= count else { return nil }
        let strongest = corners.sorted {
            abs(turns[$0]) > abs(turns[$1]) || (abs(turns[$0]) == abs(turns[$1]) && $0 < $1)
        }
        return strongest.prefix(count).sorted()
    }

    /// Mean distance of the loop's samples from the closed polygon, as a fraction of the perimeter.
    func error(against polygon: [Point]) -> Double {
        var sum = 0.0
        for point in points { sum += point.distance(toPolygon: polygon) }
        return sum / Double(points.count) / perimeter
    }
}
