/// Where a stroke closes on itself: the pair of points, one near each end, that leaves the least of it open.
///
/// People overshoot or stop short when they close a shape. The closing pair minimises the gap between the two
/// points plus a share of the overshoot cut off beyond them, both as fractions of the stroke's length, so an
/// overlap is cut where the ends meet, while a stroke whose ends only meet far along (a question mark's curl)
/// stays open.
struct Closure {
    /// Index of the loop's first sample.
    var start: Int
    /// Index of the loop's last sample; the loop closes from here back to `start`.
    var end: Int
    /// The gap plus the weighted overshoot, as a fraction of the stroke's length.
    var opening: Double

    /// At most `tailFraction` of the samples, both ends together, are cut off.
    ///
    /// - Complexity: O(m²) for m samples in the tails.
    init(samples: [Point], tailFraction: Double, overshootWeight: Double) {
        let last = samples.count - 1
        let length = samples.pathLength()
        let tail = Int(Double(last) * tailFraction)
        self.init(start: 0, end: last, opening: samples[0].distance(to: samples[last]) / length)
        for start in 0...tail {
            for end in (last - tail + start)...last {
                let overshoot = Double(start + last - end) / Double(last)
                let opening = samples[start].distance(to: samples[end]) / length + overshootWeight * overshoot
                if opening < self.opening { self.init(start: start, end: end, opening: opening) }
            }
        }
    }

    init(start: Int, end: Int, opening: Double) {
        self.start = start
        self.end = end
        self.opening = opening
    }

    /// Whether both ends run on past the closing point and cross there, as in an ✗ or a fish, rather than
    /// overlapping along the way, as when people close a circle: such a stroke is not a closed shape.
    func isCrossing(_ samples: [Point], minimumTail: Double, minimumAngle: Double) -> Bool {
        let last = samples.count - 1
        guard Double(min(start, last - end)) >= minimumTail * Double(last) else { return false }
        let first = samples[min(start + 2, last)] - samples[max(start - 2, 0)]
        let second = samples[min(end + 2, last)] - samples[max(end - 2, 0)]
        return abs(first.angle(to: second)) > minimumAngle
    }
}
