public import InkwellBoard
public import InkwellSync

extension Change where Payload == BoardEdit {
    /// The strokes this change names, as ``StrokeID/description``s, without repeats, in operation order.
    ///
    /// The store keeps them beside the change so a view can redraw only those strokes. Undo, redo and
    /// clear name no stroke directly: what they touch depends on the board, so a view redraws the board.
    ///
    /// - Complexity: O(operations).
    public var entities: [String] {
        var seen: Set<StrokeID> = []
        var entities: [String] = []
        for (index, operation) in payload.operations.enumerated() {
            let stroke: StrokeID
            switch operation {
            case .addStroke: stroke = StrokeID(change: id, index: UInt32(index))
            case .appendPoints(let target, _, _), .erase(let target, _), .set(let target, _): stroke = target
            case .undo, .redo, .clear, .unknown: continue
            }
            if seen.insert(stroke).inserted { entities.append(stroke.description) }
        }
        return entities
    }
}
