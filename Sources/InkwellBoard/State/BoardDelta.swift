/// What one applied change altered in the drawing, so a renderer redraws only that.
public struct BoardDelta: Sendable {
    /// Strokes whose geometry, style or visibility changed.
    public var strokes: Set<StrokeID> { Set(touched) }
    /// The same, as collected: cheaper than hashing into a set on every apply.
    var touched: [StrokeID] = []
    /// The stacking order of visible strokes changed.
    public var reordered = false
    /// Potentially every stroke changed (a clear, or undoing one): redraw everything.
    public var everything = false

    public init() {}

    public var isEmpty: Bool { touched.isEmpty && !reordered && !everything }

    public mutating func formUnion(_ other: BoardDelta) {
        touched.append(contentsOf: other.touched)
        reordered = reordered || other.reordered
        everything = everything || other.everything
    }
}
