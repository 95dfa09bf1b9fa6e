/// A last-writer-wins property of a stroke.
public enum Attribute: UInt8, Hashable, Sendable, CaseIterable {
    case colour = 1
    case width = 2
    case transform = 3
    /// Stacking order: higher draws on top; strokes without one sit at 0, in creation order.
    case zOrder = 4
    /// A deleted stroke is hidden whole (the stroke eraser), and can be undeleted by undo.
    case deleted = 5
    /// Paint inside a stroke's closed outline, beneath its ink; a colour of alpha 0 is none.
    case fill = 6
}

/// The value written to an ``Attribute``.
public enum AttributeValue: Hashable, Sendable {
    case colour(Colour)
    case width(Double)
    case transform(Transform)
    case zOrder(Double)
    case deleted(Bool)
    case fill(Colour)

    /// The attribute this value belongs to: a write whose value does not match its attribute is ignored.
    public var attribute: Attribute {
        switch self {
        case .colour: .colour
        case .width: .width
        case .transform: .transform
        case .zOrder: .zOrder
        case .deleted: .deleted
        case .fill: .fill
        }
    }

    /// Whether the value is one a well-behaved client could send.
    public var isValid: Bool {
        switch self {
        case .colour, .deleted, .fill: true
        case .width(let width): width.isFinite && width > 0 && width <= StrokeStyle.maximumWidth
        case .transform(let transform): transform.isFinite
        case .zOrder(let z): z.isFinite
        }
    }
}
