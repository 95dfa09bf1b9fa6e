/// Recognises a finished pen stroke as a line, rectangle, ellipse, triangle, arrow or diamond, or leaves it ink.
///
/// Every measure is a ratio or an angle of the stroke resampled evenly along its length, so the result does not
/// depend on the drawing's size, position, speed or sampling rate. The arithmetic is plain doubles with `sqrt`,
/// `atan2`, `sin` and `cos`, and no step depends on hashing or dictionary order, so the browser's port gives the
/// same answers (see `Conformance/recognition.json`).
public struct ShapeRecognizer: Sendable {
    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The shape `points`, one finished stroke in drawing order, was meant to be.
    ///
    /// - Complexity: O(n) for n points, plus a constant for the resampled stroke.
    public func recognize(_ points: [Point]) -> RecognizedShape {
        var cleaned: [Point] = []
        cleaned.reserveCapacity(points.count)
        for point in points where point.isFinite && point != cleaned.last {
            cleaned.append(point)
        }
        guard let origin = cleaned.first, cleaned.count >= 2 else { return .none }
        // Measured from the first point, so far-away drawings lose no precision.
        let local = cleaned.map { $0 - origin }
        let length = local.pathLength()
        guard length > 0, length.isFinite else { return .none }
        let samples = local.resampled(count: configuration.sampleCount)
        let shape = line(samples) ?? closedShape(samples) ?? arrow(samples) ?? .none
        return shape.translated(by: origin)
    }
}
