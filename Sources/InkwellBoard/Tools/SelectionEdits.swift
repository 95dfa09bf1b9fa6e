public import InkwellGeometry
public import InkwellSync

/// What editing a selection writes: the operations of one change, as the page's
/// `Web/js/model/selection-edits.js` makes them from the same selection (`Conformance/selection.json`
/// holds both to it).
///
/// A move, scale or rotation is one ``Attribute/transform`` write per selected stroke: the edit's matrix
/// after the stroke's own; its points never change. So a concurrent partial erase, whose intervals are in
/// the stroke's parameter space, cuts the moved stroke where it cut it before (the gap moves with the
/// ink); a concurrent recolour or width change is another attribute, and both hold; of two concurrent
/// transforms of one stroke, the later in the total order wins whole.
public enum SelectionEdits {
    /// A move by (dx, dy), snapped to the ink grid.
    public static func translation(dx: Double, dy: Double) -> Transform {
        .translation(snap(dx), snap(dy))
    }

    /// Scaling by (sx, sy) about `pivot`, which stays where it is.
    public static func scaling(sx: Double, sy: Double, about pivot: Point) -> Transform {
        Transform(a: sx, b: 0, c: 0, d: sy, tx: pivot.x - sx * pivot.x, ty: pivot.y - sy * pivot.y)
    }

    /// Rotation by `angle` radians (clockwise on screen, where y grows downwards) about `pivot`.
    public static func rotation(by angle: Double, about pivot: Point) -> Transform {
        let (cos, sin) = (_cos(angle), _sin(angle))
        return Transform(
            a: cos,
            b: sin,
            c: -sin,
            d: cos,
            tx: pivot.x - cos * pivot.x + sin * pivot.y,
            ty: pivot.y - sin * pivot.x - cos * pivot.y
        )
    }

    /// Writes `matrix` after each stroke's transform; nothing for a stroke whose transform would not
    /// change, or would stop being finite.
    public static func transform(_ strokes: [DrawingStroke], by matrix: Transform) -> [BoardOperation] {
        strokes.sorted { $0.id < $1.id }.compactMap { stroke in
            let next = stroke.transform.concatenating(matrix)
            guard next.isFinite, next != stroke.transform else { return nil }
            return .set(stroke.id, .transform(next))
        }
    }

    /// Recolours the strokes not already `colour`.
    public static func recolour(_ strokes: [DrawingStroke], to colour: Colour) -> [BoardOperation] {
        strokes.sorted { $0.id < $1.id }.filter { $0.colour != colour }.map { .set($0.id, .colour(colour)) }
    }

    /// Fills the ink strokes not already filled with `colour`; a colour of alpha 0 takes their fill away.
    /// Text and images take no fill.
    public static func fill(_ strokes: [DrawingStroke], with colour: Colour) -> [BoardOperation] {
        let wanted: Colour? = colour.alpha == 0 ? nil : colour
        return strokes.sorted { $0.id < $1.id }
            .filter { $0.text == nil && $0.image == nil && $0.fill != wanted }
            .map { .set($0.id, .fill(colour)) }
    }

    /// Gives the strokes not already `width` that width; nothing for a width no stroke may have.
    public static func setWidth(of strokes: [DrawingStroke], to width: Double) -> [BoardOperation] {
        guard AttributeValue.width(width).isValid else { return [] }
        return strokes.sorted { $0.id < $1.id }.filter { $0.width != width }.map { .set($0.id, .width(width)) }
    }

    /// Deletes the strokes whole (undo brings them back).
    public static func delete(_ ids: some Collection<StrokeID>) -> [BoardOperation] {
        Set(ids).sorted().map { .set($0, .deleted(true)) }
    }

    /// Brings the selected strokes above every other, keeping their order among themselves; nothing when
    /// they are on top already, in that order. `stack` is every visible stroke, bottom to top.
    public static func bringToFront(_ selected: Set<StrokeID>, in stack: [DrawingStroke]) -> [BoardOperation] {
        let chosen = stack.filter { selected.contains($0.id) }
        guard !chosen.isEmpty, chosen.count < stack.count,
            !stack.suffix(chosen.count).allSatisfy({ selected.contains($0.id) })
        else { return [] }
        let top = stack.map(\.z).max()!.rounded(.down)
        return chosen.enumerated().map { .set($1.id, .zOrder(top + 1 + Double($0))) }
    }

    /// Sends the selected strokes below every other, keeping their order among themselves.
    public static func sendToBack(_ selected: Set<StrokeID>, in stack: [DrawingStroke]) -> [BoardOperation] {
        let chosen = stack.filter { selected.contains($0.id) }
        guard !chosen.isEmpty, chosen.count < stack.count,
            !stack.prefix(chosen.count).allSatisfy({ selected.contains($0.id) })
        else { return [] }
        let bottom = stack.map(\.z).min()!.rounded(.up)
        return chosen.enumerated().map { .set($1.id, .zOrder(bottom - Double(chosen.count) + Double($0))) }
    }

    /// Copies strokes as new ones of the change `change`, moved by (dx, dy): each an ``BoardOperation/addStroke(_:points:pressures:)``
    /// of the same ink and style, then an erase of what the original hides and its transform after the
    /// move, so the copy looks as the original did; a text box as an ``BoardOperation/addText(_:at:)`` of
    /// its corner and size, then an insert of its text as one run; an image as an
    /// ``BoardOperation/addImage(_:at:)`` of the same blob and box. Strokes stay in the order given (bottom to top),
    /// above every stroke of `stack`; one longer than an operation may carry is left out.
    public static func copies(
        of strokes: [DrawingStroke],
        dx: Double,
        dy: Double,
        change: ChangeID,
        above stack: [DrawingStroke] = []
    ) -> [BoardOperation] {
        let copied = strokes.filter { !$0.points.isEmpty && $0.points.count <= BoardLimits.maximumPointsPerOperation }
        let move = translation(dx: dx, dy: dy)
        let top = max(0, stack.map(\.z).max() ?? 0).rounded(.down)
        var adds: [BoardOperation] = []
        var rest: [BoardOperation] = []
        for (index, stroke) in copied.enumerated() {
            let id = StrokeID(change: change, index: UInt32(index))
            if let image = stroke.image {
                // An image: the same blob in the same box.
                adds.append(.addImage(image, at: stroke.points[0]))
            } else if let text = stroke.text {
                // A box: the same corner and size, its text as one run.
                adds.append(.addText(TextStyle(colour: stroke.colour, size: stroke.width), at: stroke.points[0]))
                if !text.isEmpty { rest.append(.insertText(id, after: nil, text: text)) }
            } else {
                adds.append(
                    .addStroke(
                        StrokeStyle(colour: stroke.colour, width: stroke.width, brush: stroke.brush),
                        points: stroke.points,
                        pressures: stroke.pressures
                    )
                )
                if let fill = stroke.fill { rest.append(.set(id, .fill(fill))) }
            }
            // A dot in the drawing is whole; a longer stroke hides what lies between its pieces.
            if stroke.points.count > 1 {
                let hidden = IntervalSet(stroke.pieces).gaps(in: 0, Double(stroke.points.count - 1))
                if !hidden.isEmpty { rest.append(.erase(id, hidden)) }
            }
            let transform = stroke.transform.concatenating(move)
            if !transform.isIdentity { rest.append(.set(id, .transform(transform))) }
            if top > 0 { rest.append(.set(id, .zOrder(top + 1 + Double(index)))) }
        }
        return adds + rest
    }

    private static func snap(_ value: Double) -> Double {
        (value * InkGrid.stepsPerPixel).rounded() / InkGrid.stepsPerPixel
    }
}
