/// What one applied change altered in the drawing, so a renderer redraws only that.
public struct BoardDelta: Sendable {
    /// Strokes whose geometry, style or visibility changed.
    public var strokes: Set<StrokeID> { first.map { Set(more).union([$0]) } ?? [] }
    /// The same, as collected: cheaper than hashing into a set on every apply. The first is kept
    /// apart, so that the usual change, which touches one stroke, allocates nothing.
    var first: StrokeID?
    var more: [StrokeID] = []
    /// The stacking order of visible strokes changed.
    public var reordered = false
    /// Potentially every stroke changed (a clear, or undoing one): redraw everything.
    public var everything = false

    public init() {}

    public var isEmpty: Bool { first == nil && !reordered && !everything }

    mutating func touch(_ id: StrokeID) {
        if first == nil { first = id } else { more.append(id) }
    }

    public mutating func formUnion(_ other: BoardDelta) {
        if let id = other.first { touch(id) }
        more.append(contentsOf: other.more)
        reordered = reordered || other.reordered
        everything = everything || other.everything
    }
}
