/// Decides whether an eraser that removes whole strokes touches a stroke.
///
/// Touching the painted ink counts, not only the centre line: the eraser path, grown by ``radius`` plus half the
/// stroke's width, must meet a visible part of the curve. It runs the partial eraser's sweep and stops at the
/// first covered piece.
public struct StrokeEraser: Sendable {
    /// The eraser circle's radius in board pixels.
    public var radius: Double

    public init(radius: Double) {
        self.radius = radius
    }

    /// Whether the eraser moved along `path` touches the ink of `curve` drawn `width` pixels wide.
    ///
    /// - Parameter visible: the stroke's visible parameter intervals, `nil` for the whole stroke; erased parts
    ///   are never hit. For a dot pass `nil` unless it is erased.
    /// - Returns: `false` for non-finite or negative inputs and for an empty path or curve.
    /// - Complexity: as ``PartialEraser/cut(_:along:)``, stopping at the first hit.
    public func hits(
        _ curve: SmoothCurve,
        width: Double,
        visible: [ParameterInterval]? = nil,
        along path: [Point]
    ) -> Bool {
        guard width.isFinite, width >= 0, let first = curve.points.first,
            let swept = EraserPath(points: path, radius: radius + width / 2)
        else { return false }
        if curve.segments.isEmpty {
            return curve.isDotVisible(visible)
                && swept.distance(from: first, segments: Array(0..<swept.segmentCount)) <= swept.radius
        }
        for range in curve.visibleRanges(visible) {
            let segment = curve.segments[range.index]
            let piece =
                range.lower == 0 && range.upper == 1 ? segment : segment.piece(from: range.lower, to: range.upper)
            let box = piece.controlBounds
            guard piece.isFinite, box.intersects(swept.reach) else { continue }
            let nearby = swept.segments(near: box)
            guard !nearby.isEmpty else { continue }
            var coverage = SegmentSweep.Coverage(stopsAtFirst: true)
            SegmentSweep(path: swept, segment: segment, nearby: nearby)
                .sweep(piece, from: range.lower, to: range.upper, depth: 0, into: &coverage)
            if !coverage.ranges.isEmpty { return true }
        }
        return false
    }
}
