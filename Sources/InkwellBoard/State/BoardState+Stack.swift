import InkwellSync

extension BoardState {
    /// Puts a stroke where it now belongs in the stack of visible strokes, or takes it out.
    ///
    /// - Complexity: O(log strokes) to find its place, plus moving the entries above it.
    mutating func restack(_ id: StrokeID, delta: inout BoardDelta) {
        delta.touched.append(id)
        let wanted = stackEntry(for: id)
        let current = stackEntries[id]
        guard wanted != current else { return }
        if let current {
            stack.remove(at: stack.insertionPoint(of: current))
            stackEntries[id] = nil
        }
        if let wanted {
            stack.insert(wanted, at: stack.insertionPoint(of: wanted))
            stackEntries[id] = wanted
        }
        delta.reordered = delta.reordered || (current != nil && wanted != nil)
    }

    /// The stroke's stack entry if it should be visible now.
    func stackEntry(for id: StrokeID) -> StackEntry? {
        guard let record = records[id], let added = record.added, isActive(added.position.change),
            !record.pieces.isEmpty
        else { return nil }
        if let clear = latestActiveClear, added.position < clear { return nil }
        var z = 0.0
        if !record.attributes.isEmpty {
            if case .deleted(true) = record.attributes[.deleted]?.current(isActive: isActive) { return nil }
            if case .zOrder(let value) = record.attributes[.zOrder]?.current(isActive: isActive) { z = value }
        }
        return StackEntry(z: z, position: added.position, id: id)
    }
}
