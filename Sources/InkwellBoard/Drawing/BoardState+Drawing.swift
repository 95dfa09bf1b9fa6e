public import InkwellGeometry
import InkwellSync

extension BoardState {
    /// The visible strokes, bottom to top: what a renderer draws.
    ///
    /// Read it after applying changes, and use ``BoardDelta`` to redraw only what changed. Holding on
    /// to it while applying more changes makes the board copy its storage.
    ///
    /// - Complexity: O(1) to create; O(size of a stroke) per element read.
    public var drawing: some RandomAccessCollection<DrawingStroke> {
        stack.lazy.map { drawingStroke($0.id)! }
    }

    /// The number of visible strokes.
    public var visibleStrokeCount: Int { stack.count }

    /// A visible stroke, or `nil` if it is hidden, erased away, deleted, undone or not here yet.
    ///
    /// - Complexity: O(1) plus copying references to its arrays.
    public func drawingStroke(_ id: StrokeID) -> DrawingStroke? {
        guard let record = records[id], let entry = record.stacked, let added = record.added else { return nil }
        var colour = added.style.colour
        var width = added.style.width
        var transform = Transform.identity
        var fill: Colour?
        if added.kind == .ink, case .fill(let value) = record.attributes[.fill]?.current(isActive: isActive),
            value.alpha > 0
        {
            fill = value
        }
        // An image shows its own colours at its box's size, scaled only by its transform.
        if added.kind != .image {
            if case .colour(let value) = record.attributes[.colour]?.current(isActive: isActive) { colour = value }
            if case .width(let value) = record.attributes[.width]?.current(isActive: isActive) { width = value }
        }
        if case .transform(let value) = record.attributes[.transform]?.current(isActive: isActive) {
            transform = value
        }
        return DrawingStroke(
            id: id,
            colour: colour,
            width: width,
            transform: transform,
            z: entry.z,
            points: record.points,
            pressures: record.pressures,
            pieces: record.pieces,
            text: added.isText ? texts[id]?.shown ?? "" : nil,
            image: added.kind == .image ? images[id] : nil,
            brush: added.style.brush,
            fill: fill
        )
    }

    /// Whether `id` was added as a text box.
    public func isTextBox(_ id: StrokeID) -> Bool { records[id]?.added?.isText == true }

    /// Whether `id` was added as ink (`addStroke`).
    public func isInk(_ id: StrokeID) -> Bool { records[id]?.added?.kind == .ink }

    /// The characters a text box shows, in order, with their anchors; empty for a box not here or ink.
    ///
    /// - Complexity: O(n log n) for n characters ever inserted in the box.
    public func characters(of box: StrokeID) -> [BoxCharacter] {
        guard isTextBox(box), let text = texts[box] else { return [] }
        return text.visibleCharacters(isActive: activeCheck)
    }

    /// Whether a stroke is known at all (visible or not, arrived or only mentioned).
    public func knows(_ id: StrokeID) -> Bool { records[id]?.added != nil }

    /// The points of a stroke that has arrived, visible or not: what erasers and appends work against.
    public func points(of id: StrokeID) -> [Point]? {
        records[id]?.added == nil ? nil : records[id]!.points
    }
}
