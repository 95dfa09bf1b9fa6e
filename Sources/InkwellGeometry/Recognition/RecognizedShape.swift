/// What a finished stroke was recognised as, with its corrected geometry in board coordinates.
public enum RecognizedShape: Hashable, Sendable {
    /// Not a shape: the stroke stays ink as drawn.
    case none
    /// A straight line from the first point to the second, in drawing order.
    case line(Point, Point)
    /// Four corners in drawing order with right angles; may be rotated.
    case rectangle([Point])
    /// `rotation` is in radians, in `[-π/4, π/4]`; a circle has equal radii and rotation 0.
    case ellipse(center: Point, radiusX: Double, radiusY: Double, rotation: Double)
    /// Three corners in drawing order.
    case triangle([Point])
    /// A shaft from `tail` to `tip` and the two barb ends of the head, the first drawn first.
    case arrow(tail: Point, tip: Point, head: [Point])
    /// Four corners in drawing order of a rhombus whose diagonals are horizontal and vertical.
    case diamond([Point])

    /// The shape's name as the CLI, the conformance vectors and the browser client spell it.
    public var kind: String {
        switch self {
        case .none: "none"
        case .line: "line"
        case .rectangle: "rectangle"
        case .ellipse: "ellipse"
        case .triangle: "triangle"
        case .arrow: "arrow"
        case .diamond: "diamond"
        }
    }
}
