import Foundation

extension ShapeRecognizer {
    /// An arrow if the stroke is a long, nearly straight shaft to the point farthest from where it starts (the
    /// tip), followed by a small head with a barb on each side of the shaft.
    ///
    /// Only arrows drawn tail first are recognised: read backwards, an ✗ or a delete mark also looks like a shaft
    /// with a head, and on the $1 data accepting both directions cost far more false arrows than it found.
    func arrow(_ samples: [Point]) -> RecognizedShape? {
        guard let parts = ArrowParts(samples, shaftReach: configuration.arrowShaftReach), parts.isArrow(configuration)
        else { return nil }
        let tail = samples[0]
        let length = parts.tip.distance(to: tail)
        let direction = snapped((parts.tip - tail) / length, within: radians(configuration.lineSnapAngle))
        let tip = tail + direction * length
        // Both barbs get the mean length and the mean angle of the drawn ones.
        let barb = (parts.firstBarb.distance(to: parts.tip) + parts.secondBarb.distance(to: parts.tip)) / 2
        let back = -direction
        let firstAngle = back.angle(to: parts.firstBarb - parts.tip)
        let spread = (abs(firstAngle) + abs(back.angle(to: parts.secondBarb - parts.tip))) / 2
        let side = firstAngle < 0 ? -1.0 : 1.0
        return .arrow(
            tail: tail,
            tip: tip,
            head: [tip + turned(back, by: side * spread) * barb, tip + turned(back, by: -side * spread) * barb]
        )
    }

    private func turned(_ vector: Point, by angle: Double) -> Point {
        let c = cos(angle)
        let s = sin(angle)
        return Point(vector.x * c - vector.y * s, vector.x * s + vector.y * c)
    }
}

/// A stroke split into an arrow's shaft and head, with the measures that say whether it is one. Lengths are
/// fractions of the arrow's length, from its tail (the first sample) to its tip (the sample farthest from the tail).
struct ArrowParts {
    var tip: Point
    /// The ends of the barbs, the one drawn first first: the head's points farthest from the shaft on either side.
    var firstBarb: Point
    var secondBarb: Point
    /// The shaft's largest distance from the line from the tail to the shaft's end.
    var shaftDeviation: Double
    /// The head's largest distance from the tip.
    var headRadius: Double
    /// How far the barbs reach on either side of the line from tail to tip, the smaller of the two.
    var barbReach: Double
    /// The head's drawn length.
    var headLength: Double

    init?(_ samples: [Point], shaftReach: Double) {
        let tail = samples[0]
        let distances = samples.map { $0.distance(to: tail) }
        var tipIndex = 0
        for index in samples.indices where distances[index] > distances[tipIndex] { tipIndex = index }
        let tip = samples[tipIndex]
        let length = distances[tipIndex]
        guard length > 0 else { return nil }
        // The shaft ends where the stroke, having come most of the way, first turns back towards the tail.
        var shaftEnd = 0
        while distances[shaftEnd] < shaftReach * length { shaftEnd += 1 }
        while shaftEnd + 1 < samples.count, distances[shaftEnd + 1] > distances[shaftEnd] { shaftEnd += 1 }
        let shaft = (samples[shaftEnd] - tail) / distances[shaftEnd]
        var deviation = 0.0
        for point in samples[...shaftEnd] { deviation = max(deviation, abs(shaft.cross(point - tail))) }
        let axis = (tip - tail) / length
        var first = shaftEnd
        var second = shaftEnd
        var radius = 0.0
        var headLength = 0.0
        for index in shaftEnd..<samples.count {
            let point = samples[index]
            if index > shaftEnd { headLength += point.distance(to: samples[index - 1]) }
            radius = max(radius, point.distance(to: tip))
            if axis.cross(point - tip) > axis.cross(samples[first] - tip) { first = index }
            if axis.cross(point - tip) < axis.cross(samples[second] - tip) { second = index }
        }
        self.tip = tip
        self.firstBarb = samples[min(first, second)]
        self.secondBarb = samples[max(first, second)]
        self.shaftDeviation = deviation / length
        self.headRadius = radius / length
        self.barbReach = min(axis.cross(samples[first] - tip), -axis.cross(samples[second] - tip)) / length
        self.headLength = headLength / length
    }

    func isArrow(_ configuration: ShapeRecognizer.Configuration) -> Bool {
        shaftDeviation <= configuration.arrowShaftDeviation && headRadius <= configuration.arrowMaxHeadRadius
            && barbReach >= configuration.arrowMinBarb && headLength <= configuration.arrowMaxHead
    }
}
