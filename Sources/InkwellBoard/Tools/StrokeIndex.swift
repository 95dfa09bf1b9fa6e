public import InkwellGeometry

/// Keeps a board's visible strokes findable by place, with their smoothed curves, so that erasers
/// and the lasso look only at strokes near them (DESIGN §3; 500,000-point boards stay fast).
///
/// Feed it every ``BoardDelta`` the board returns; it rebuilds only the strokes a delta names.
public struct StrokeIndex: Sendable {
    var index = SpatialIndex<StrokeID>()
    var curves: [StrokeID: SmoothCurve] = [:]

    /// An index of everything `board` shows now.
    public init(_ board: BoardState) {
        for stroke in board.drawing { refresh(stroke) }
    }

    /// The number of strokes indexed.
    public var count: Int { curves.count }

    /// Brings the index up to date after `board` returned `delta`.
    ///
    /// - Complexity: O(points of the strokes the delta names), or O(visible points) after a clear.
    public mutating func update(from board: BoardState, after delta: BoardDelta) {
        if delta.everything {
            self = StrokeIndex(board)
            return
        }
        for id in delta.strokes {
            if let stroke = board.drawingStroke(id) {
                refresh(stroke)
            } else if curves.removeValue(forKey: id) != nil {
                index.remove(id)
            }
        }
    }

    mutating func refresh(_ stroke: DrawingStroke) {
        let curve = SmoothCurve(points: stroke.points.map(stroke.transform.apply))
        curves[stroke.id] = curve
        let boxes = curve.chunkBounds().map { $0.expanded(by: stroke.width / 2) }
        if !index.update(stroke.id, boxes: boxes) { index.insert(stroke.id, boxes: boxes) }
    }

    /// Visible strokes whose boxes meet `rect`, in a deterministic order.
    public func strokes(near rect: Rect) -> [StrokeID] {
        index.query(rect)
    }

    /// The erase operations for a circle of `radius` moved along `path` (board coordinates): for
    /// each stroke it crosses, the parameter intervals it covers that are still visible.
    ///
    /// Strokes are cut on their transformed curves; a transform that is not a translation is
    /// handled exactly for rotations and uniform scales, which keep circles circles.
    public func partialErase(along path: [Point], radius: Double, in board: BoardState) -> [BoardOperation] {
        guard let area = Rect(bounding: path)?.expanded(by: radius) else { return [] }
        let eraser = PartialEraser(radius: radius)
        return strokes(near: area).sorted().compactMap { id in
            guard let curve = curves[id], let stroke = board.drawingStroke(id) else { return nil }
            let cut = IntervalSet(eraser.cut(curve, along: path))
            if stroke.points.count == 1 { return cut.isEmpty ? nil : .erase(id, cut.intervals) }
            let visible = cut.intervals.flatMap { interval in
                stroke.pieces.compactMap { piece -> ParameterInterval? in
                    let overlap = ParameterInterval(max(interval.lower, piece.lower), min(interval.upper, piece.upper))
                    return overlap.isEmpty ? nil : overlap
                }
            }
            return visible.isEmpty ? nil : .erase(id, visible)
        }
    }

    /// The delete operations for the stroke eraser: every visible stroke the path touches goes whole.
    public func strokeErase(along path: [Point], radius: Double, in board: BoardState) -> [BoardOperation] {
        guard let area = Rect(bounding: path)?.expanded(by: radius) else { return [] }
        let eraser = StrokeEraser(radius: radius)
        return strokes(near: area.expanded(by: StrokeStyle.maximumWidth / 2)).sorted().compactMap { id in
            guard let curve = curves[id], let stroke = board.drawingStroke(id),
                eraser.hits(curve, width: stroke.width, visible: stroke.visiblePieces, along: path)
            else { return nil }
            return .set(id, .deleted(true))
        }
    }

    /// The visible strokes a closed lasso selects.
    public func select(lasso polygon: [Point], in board: BoardState) -> [StrokeID] {
        let lasso = Lasso(polygon: polygon)
        guard let area = lasso.bounds else { return [] }
        return strokes(near: area).sorted().filter { id in
            guard let curve = curves[id], let stroke = board.drawingStroke(id) else { return false }
            return lasso.selects(curve, visible: stroke.visiblePieces)
        }
    }
}

extension DrawingStroke {
    /// The pieces in the form the hit tests take: `nil` for a dot, which is whole when it is visible.
    var visiblePieces: [ParameterInterval]? {
        points.count == 1 ? nil : pieces
    }
}
