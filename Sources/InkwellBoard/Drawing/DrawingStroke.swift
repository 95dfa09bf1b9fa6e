public import InkwellGeometry

/// A visible stroke as a renderer needs it: current style, transform, points and visible pieces.
public struct DrawingStroke: Hashable, Sendable {
    public let id: StrokeID
    public let colour: Colour
    public let width: Double
    public let transform: Transform
    /// Stacking value; strokes with equal values stack in the order they were added.
    public let z: Double
    /// The sampled points, before the transform.
    public let points: [Point]
    /// One pressure per point (0…1), when the pen reported it.
    public let pressures: [Float]?
    /// The visible parts, in order: parameter intervals of positive length, or the single `[0, 0]`
    /// of a one-point dot.
    public let pieces: [ParameterInterval]
    /// A text box's text as it shows (possibly empty), or `nil` for ink. A box's one point is its top-left
    /// corner, its width its font size, its one piece `[0, 0]`.
    public let text: String?
    /// An image: its blob and the box it fills (its one point the box's corner, its width the box's), or
    /// `nil` for anything else.
    public let image: BoardImage?
    /// What draws it: a highlighter's strokes come first in the drawing, beneath everything else.
    public let brush: Brush
    /// Paint inside its closed outline, beneath its ink; `nil` for none (and always for text and images).
    public let fill: Colour?

    /// A text box's lines, or `nil` for ink.
    public var layout: TextLayout? {
        text.map { TextLayout(corner: points[0], size: width, text: $0) }
    }

    /// The stroke's bounds after its transform, grown by half its width: what to redraw when it changes.
    public var bounds: Rect? {
        if let image {
            let corner = points[0]
            return Rect(
                bounding: [
                    corner, Point(corner.x + image.width, corner.y), Point(corner.x, corner.y + image.height),
                    Point(corner.x + image.width, corner.y + image.height),
                ].map(transform.apply)
            )
        }
        if let layout {
            let box = layout.estimatedBounds
            let corners = [
                Point(box.minX, box.minY), Point(box.maxX, box.minY), Point(box.minX, box.maxY),
                Point(box.maxX, box.maxY),
            ]
            return Rect(bounding: corners.map(transform.apply))
        }
        guard var box = Rect(bounding: points.map(transform.apply)) else { return nil }
        box = box.expanded(by: width / 2 * max(1, transform.scale))
        return box
    }
}

extension Transform {
    /// The largest factor by which the transform stretches a length.
    var scale: Double {
        max((a * a + b * b).squareRoot(), (c * c + d * d).squareRoot())
    }
}
