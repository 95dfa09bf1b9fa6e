/// Finds which parameters of one Bézier segment lie in an eraser's swept area.
///
/// A piece of the curve lies in the disc around its control points' box centre that holds all four control
/// points, so the distance from the eraser path varies over the piece by at most that disc's radius: the piece
/// is wholly in, wholly out, or halved again. Pieces that stay undecided down to ``leafRadius`` are settled
/// by the exact distance at their ends, and a boundary between them is found by bisection. Every step is plain
/// double arithmetic in a fixed order, so the JavaScript client reproduces the result.
struct SegmentSweep {
    let path: EraserPath
    /// The whole segment, evaluated exactly at leaf ends and during bisection.
    let segment: CubicBezier
    /// The path segments that may come near this curve segment.
    let nearby: [Int]

    /// Below this disc radius (px) a piece is settled by its ends: the distance anywhere inside it is then within
    /// twice this of the distance at its ends.
    static let leafRadius = 0.02
    /// A guard against endless halving of absurd coordinates.
    static let maximumDepth = 40
    /// Bisection stops when the bracket is this narrow in segment parameter.
    static let bisectionWidth = 1e-12

    /// Adds to `coverage` every covered range of `piece`, which spans `lower...upper` of the segment.
    ///
    /// - Complexity: O(k · log(L / leafRadius)) distance evaluations for k boundary crossings on a segment
    ///   of length L.
    func sweep(_ piece: CubicBezier, from lower: Double, to upper: Double, depth: Int, into coverage: inout Coverage) {
        if coverage.isDone { return }
        let box = piece.controlBounds
        let centre = box.center
        let spread = Swift.max(
            Swift.max(piece.start.distanceSquared(to: centre), piece.control1.distanceSquared(to: centre)),
            Swift.max(piece.control2.distanceSquared(to: centre), piece.end.distanceSquared(to: centre))
        ).squareRoot()
        let distance = path.distance(from: centre, segments: nearby)
        guard distance.isFinite, spread.isFinite else { return }
        if distance - spread > path.radius { return }
        if distance + spread <= path.radius {
            coverage.add(lower, upper)
            return
        }
        if spread <= Self.leafRadius || depth >= Self.maximumDepth {
            settle(from: lower, to: upper, into: &coverage)
            return
        }
        let (left, right) = piece.split(at: 0.5)
        let middle = (lower + upper) / 2
        sweep(left, from: lower, to: middle, depth: depth + 1, into: &coverage)
        sweep(right, from: middle, to: upper, depth: depth + 1, into: &coverage)
    }

    /// Whether the segment's point at `t` is in the swept area.
    func isCovered(_ t: Double) -> Bool {
        path.distance(from: segment.point(at: t), segments: nearby) <= path.radius
    }

    /// Decides a tiny undecided piece from its two ends, bisecting when they disagree.
    private func settle(from lower: Double, to upper: Double, into coverage: inout Coverage) {
        switch (isCovered(lower), isCovered(upper)) {
        case (true, true): coverage.add(lower, upper)
        case (true, false): coverage.add(lower, boundary(inside: lower, outside: upper).outside)
        case (false, true): coverage.add(boundary(inside: upper, outside: lower).inside, upper)
        case (false, false): break
        }
    }

    /// Narrows a bracket around the swept area's edge to ``bisectionWidth``.
    private func boundary(inside: Double, outside: Double) -> (inside: Double, outside: Double) {
        var inside = inside
        var outside = outside
        var steps = 0
        while abs(outside - inside) > Self.bisectionWidth, steps < 64 {
            let middle = (inside + outside) / 2
            if isCovered(middle) { inside = middle } else { outside = middle }
            steps += 1
        }
        return (inside, outside)
    }

    /// Covered ranges found so far, in increasing order, touching ranges merged.
    struct Coverage {
        var ranges: [(lower: Double, upper: Double)] = []
        /// A hit test needs one covered point, not the whole picture.
        var stopsAtFirst = false

        var isDone: Bool { stopsAtFirst && !ranges.isEmpty }

        mutating func add(_ lower: Double, _ upper: Double) {
            if let last = ranges.last, lower <= last.upper {
                ranges[ranges.count - 1].upper = Swift.max(last.upper, upper)
            } else {
                ranges.append((lower, upper))
            }
        }
    }
}
