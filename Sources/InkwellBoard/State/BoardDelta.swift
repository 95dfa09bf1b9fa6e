/// What one applied change altered in the drawing, so a renderer redraws only that.
public struct BoardDelta: Hashable, Sendable {
    /// Strokes whose geometry, style or visibility changed.
    public var strokes: Set<StrokeID> = []
    /// The stacking order of visible strokes changed.
    public var reordered = false
    /// Potentially every stroke changed (a clear, or undoing one): redraw everything.
    public var everything = false

    public init() {}

    public var isEmpty: Bool { strokes.isEmpty && !reordered && !everything }

    public mutating func formUnion(_ other: BoardDelta) {
        strokes.formUnion(other.strokes)
        reordered = reordered || other.reordered
        everything = everything || other.everything
    }
}
