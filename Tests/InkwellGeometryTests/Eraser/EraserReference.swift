import InkwellGeometry

/// A brute-force model of the partial eraser: the curve sampled every 1/1000 of a parameter.
enum EraserReference {
    /// Distance from `point` to the polyline `path` (a point for a tap), computed independently of the module.
    static func distance(from point: Point, to path: [Point]) -> Double {
        guard path.count > 1 else { return path.first.map(point.distance) ?? .infinity }
        var best = Double.infinity
        for (a, b) in zip(path, path.dropFirst()) {
            let ab = b - a
            let t = ab.lengthSquared > 0 ? min(max((point - a).dot(ab) / ab.lengthSquared, 0), 1) : 0
            best = min(best, point.distance(to: a + ab * t))
        }
        return best
    }

    /// The largest distance, in pixels, between an interior interval end and the swept area's edge.
    static func worstBoundaryError(
        _ cuts: [ParameterInterval],
        curve: SmoothCurve,
        path: [Point],
        radius: Double
    ) -> Double {
        var worst = 0.0
        for cut in cuts {
            for boundary in [cut.lower, cut.upper] where boundary > 0 && boundary < curve.endParameter {
                worst = max(worst, abs(Self.distance(from: curve.point(at: boundary), to: path) - radius))
            }
        }
        return worst
    }

    /// Every problem found comparing `cuts` with dense samples of `curve`, allowing `slack` pixels.
    static func mismatches(
        _ cuts: [ParameterInterval],
        curve: SmoothCurve,
        path: [Point],
        radius: Double,
        slack: Double = 0.1
    ) -> [String] {
        var problems: [String] = []
        let end = curve.endParameter
        for (a, b) in zip(cuts, cuts.dropFirst()) where !(a.upper < b.lower) {
            problems.append("cuts \(a) and \(b) are not sorted and apart")
        }
        for cut in cuts where !(cut.lower < cut.upper && cut.lower >= 0 && cut.upper <= max(end, 1)) {
            problems.append("cut \(cut) is empty or outside 0...\(end)")
        }
        for cut in cuts {
            for boundary in [cut.lower, cut.upper] where boundary > 0 && boundary < end {
                let distance = Self.distance(from: curve.point(at: boundary), to: path)
                if abs(distance - radius) > slack {
                    problems.append("end \(boundary) of \(cut) is \(distance - radius) px from the edge")
                }
            }
        }
        let steps = Int((end * 1000).rounded())
        for step in 0...steps {
            let parameter = Double(step) / 1000
            let distance = Self.distance(from: curve.point(at: parameter), to: path)
            let covered = cuts.contains { $0.contains(parameter) || ($0.upper == end && parameter == end) }
            if covered && distance > radius + slack {
                problems.append("cut parameter \(parameter) is \(distance - radius) px outside")
            } else if !covered && distance <= radius - slack {
                problems.append("kept parameter \(parameter) is \(radius - distance) px inside")
            }
            if problems.count > 5 { break }
        }
        return problems
    }
}
