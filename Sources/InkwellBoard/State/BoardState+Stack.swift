import InkwellSync

extension BoardState {
    /// Changes a stroke's record (made if missing) with `body`, then puts the stroke where it now
    /// belongs in the stack of visible strokes, or takes it out: one lookup of the record in all.
    ///
    /// - Complexity: O(`body`) plus O(log strokes) to find the stroke's place in the stack, plus moving
    ///   the entries above it.
    mutating func update(
        _ id: StrokeID,
        delta: inout BoardDelta,
        _ body: (inout StrokeRecord, ActivityCheck) -> Void
    ) {
        let isActive = activeCheck
        let clear = latestActiveClear
        let move = Self.update(&records[id, default: StrokeRecord(id: id)], isActive: isActive, clear: clear, body)
        delta.touch(id)
        if let move { self.move(from: move.from, to: move.to, delta: &delta) }
    }

    /// Puts a stroke where it now belongs in the stack of visible strokes, or takes it out.
    ///
    /// - Complexity: O(log strokes) to find its place, plus moving the entries above it.
    mutating func restack(_ id: StrokeID, delta: inout BoardDelta) {
        delta.touch(id)
        guard let index = records.index(forKey: id) else { return }
        let isActive = activeCheck
        let clear = latestActiveClear
        let move = Self.update(&records.values[index], isActive: isActive, clear: clear) { _, _ in }
        if let move { self.move(from: move.from, to: move.to, delta: &delta) }
    }

    /// Runs `body` on `record`, then updates its ``StrokeRecord/stacked`` entry. Static, so that it
    /// touches nothing of the board but the record: the caller holds that record in place.
    ///
    /// - Returns: how its stack entry moved, or `nil` if it did not.
    private static func update(
        _ record: inout StrokeRecord,
        isActive: ActivityCheck,
        clear: OpStamp?,
        _ body: (inout StrokeRecord, ActivityCheck) -> Void
    ) -> (from: StackEntry?, to: StackEntry?)? {
        body(&record, isActive)
        let wanted = record.stackEntry(isActive: isActive, below: clear)
        let current = record.stacked
        guard wanted != current else { return nil }
        record.stacked = wanted
        return (current, wanted)
    }

    /// Moves a stroke's entry in the stack.
    private mutating func move(from current: StackEntry?, to wanted: StackEntry?, delta: inout BoardDelta) {
        delta.reordered = delta.reordered || (current != nil && wanted != nil)
        // The batch rebuilds it from the records' entries at its end.
        guard !stackRebuiltAfterBatch else { return }
        if let current { stack.remove(at: stack.insertionPoint(of: current)) }
        if let wanted { stack.insert(wanted, at: stack.insertionPoint(of: wanted)) }
    }

    /// The stroke's stack entry if it should be visible now.
    func stackEntry(for id: StrokeID) -> StackEntry? {
        records[id]?.stackEntry(isActive: activeCheck, below: latestActiveClear)
    }
}

extension StrokeRecord {
    /// The stroke's stack entry if it should be visible now: added, active, not all erased, not
    /// cleared (added before the latest active `clear`), not deleted.
    func stackEntry(isActive: ActivityCheck, below clear: OpStamp?) -> StackEntry? {
        guard let added, isActive(added.position.change), !pieces.isEmpty else { return nil }
        if let clear, added.position < clear { return nil }
        var z = 0.0
        if !attributes.isEmpty {
            if case .deleted(true) = attributes[.deleted]?.current(isActive: { isActive($0) }) { return nil }
            if case .zOrder(let value) = attributes[.zOrder]?.current(isActive: { isActive($0) }) { z = value }
        }
        return StackEntry(z: z, position: added.position, id: id, layer: added.layer)
    }
}
