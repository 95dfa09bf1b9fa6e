import Foundation

extension RecognizedShape {
    /// How many points an ellipse's polyline has, the closing point included.
    public static let ellipseSampleCount = 65

    /// The corrected geometry as one polyline, to commit as an ordinary stroke; empty for `.none`.
    ///
    /// Closed shapes end where they start. An arrow is drawn tail → tip → first barb, then back to the
    /// tip and out to the second barb, so it stays one connected stroke.
    public var polyline: [Point] {
        switch self {
        case .none:
            return []
        case .line(let start, let end):
            return [start, end]
        case .rectangle(let corners), .triangle(let corners), .diamond(let corners):
            guard let first = corners.first else { return [] }
            return corners + [first]
        case .ellipse(let center, let radiusX, let radiusY, let rotation):
            let cosine = cos(rotation)
            let sine = sin(rotation)
            let segments = Self.ellipseSampleCount - 1
            var points: [Point] = []
            points.reserveCapacity(Self.ellipseSampleCount)
            for index in 0..<segments {
                let angle = 2 * Double.pi * Double(index) / Double(segments)
                let u = radiusX * cos(angle)
                let v = radiusY * sin(angle)
                points.append(Point(center.x + u * cosine - v * sine, center.y + u * sine + v * cosine))
            }
            points.append(points[0])
            return points
        case .arrow(let tail, let tip, let head):
            var points = [tail, tip]
            for (index, barb) in head.enumerated() {
                if index > 0 { points.append(tip) }
                points.append(barb)
            }
            return points
        }
    }

    /// The same shape moved by `offset`.
    func translated(by offset: Point) -> RecognizedShape {
        switch self {
        case .none: .none
        case .line(let start, let end): .line(start + offset, end + offset)
        case .rectangle(let corners): .rectangle(corners.map { $0 + offset })
        case .ellipse(let center, let radiusX, let radiusY, let rotation):
            .ellipse(center: center + offset, radiusX: radiusX, radiusY: radiusY, rotation: rotation)
        case .triangle(let corners): .triangle(corners.map { $0 + offset })
        case .arrow(let tail, let tip, let head):
            .arrow(tail: tail + offset, tip: tip + offset, head: head.map { $0 + offset })
        case .diamond(let corners): .diamond(corners.map { $0 + offset })
        }
    }
}
