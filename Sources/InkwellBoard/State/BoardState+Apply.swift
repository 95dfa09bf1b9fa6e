import InkwellGeometry
public import InkwellSync

extension BoardState {
    /// Applies a change; applying it again, or a change for another board, does nothing.
    ///
    /// Malformed operations (bad sizes, non-finite numbers, appends by anyone but the creator, undo
    /// of someone else's change) are ignored identically on every replica, so replicas still agree.
    ///
    /// - Complexity: O(size of the change) plus O(log strokes) per restacked stroke; O(strokes)
    ///   for a clear or for undoing one.
    @discardableResult
    public mutating func apply(_ change: BoardChange) -> BoardDelta {
        var delta = BoardDelta()
        guard change.payload.board == board, applied[change.id] == nil else { return delta }
        applying = (change.id, .none)
        for (index, operation) in change.payload.operations.enumerated() {
            apply(operation, at: change.opStamp(index), delta: &delta)
        }
        applied.insert(applying!.effects, for: change.id)
        applying = nil
        return delta
    }

    /// Applies many changes; the result is the same as applying them one by one in any order.
    @discardableResult
    ///
    /// A batch at least a quarter the size of the board (a cold open, a long catch-up) rebuilds the stack
    /// once at its end, in O(strokes log strokes), instead of moving entries one by one. Every batch works
    /// out each text box's text once at its end: a box typed one character a change would otherwise be
    /// walked whole for each of its characters.
    public mutating func apply(contentsOf changes: some Sequence<BoardChange>) -> BoardDelta {
        let count = changes.underestimatedCount
        reserveCapacity(changes: count)
        let rebuilds = !stackRebuiltAfterBatch && count >= max(Self.batchRebuildingTheStack, records.count / 4)
        if rebuilds { stackRebuiltAfterBatch = true }
        let refreshesTexts = textsToRefresh == nil
        if refreshesTexts { textsToRefresh = [] }
        var delta = changes.reduce(into: BoardDelta()) { $0.formUnion(apply($1)) }
        if rebuilds {
            stackRebuiltAfterBatch = false
            stack = records.values.compactMap(\.stacked).sorted()
        }
        if refreshesTexts, let boxes = textsToRefresh {
            textsToRefresh = nil
            for box in boxes.sorted() { refreshText(of: box, delta: &delta) }
        }
        return delta
    }

    /// The smallest batch that rebuilds the stack at its end rather than moving its entries.
    static let batchRebuildingTheStack = 1_024

    /// Makes room for `count` more changes (each adding a stroke, at most), so that a bulk load into an
    /// empty board (a cold open, a new device's catch-up) does not rehash its tables again and again as
    /// they grow.
    ///
    /// A board that already holds changes grows its tables as they fill instead: the standard library's
    /// `reserveCapacity` moves every entry through generic code, which took a fifth of taking in a pack
    /// of 1,100 changes into a board of 2,000 (W3), where growing as it fills moves them in code
    /// specialised for the board's tables.
    ///
    /// - Complexity: O(count) for an empty board; O(1) otherwise.
    public mutating func reserveCapacity(changes count: Int) {
        guard count > 0, applied.isEmpty, records.isEmpty else { return }
        records.reserveCapacity(count)
        stack.reserveCapacity(count)
    }

    mutating func apply(_ operation: BoardOperation, at position: OpStamp, delta: inout BoardDelta) {
        let change = position.change
        switch operation {
        case .addStroke(let style, let points, let pressures):
            guard BoardLimits.acceptsStroke(style, points, pressures) else { return }
            let id = StrokeID(change: change, index: position.index)
            let added = StrokeRecord.Added(position: position, style: style, points: points, pressures: pressures)
            update(id, delta: &delta) { record, isActive in record.add(added, isActive: isActive) }
            note(.stroke(id), of: change)

        case .appendPoints(let id, let points, let pressures):
            guard BoardLimits.acceptsAppend(to: id, by: change, points, pressures),
                settlements[change.replica]?.voids(appendIn: change.seq, toStrokeAddedIn: id.change.seq) != true
            else { return }
            let append = StrokeRecord.Append(change: change, points: points, pressures: pressures)
            update(id, delta: &delta) { record, isActive in record.append(append, isActive: isActive) }
            strokesWithAppends.insert(id)
            note(.append(id), of: change)

        case .erase(let id, let intervals):
            guard let valid = BoardLimits.erasedIntervals(intervals) else { return }
            update(id, delta: &delta) { record, isActive in
                record.erases[change, default: []].append(contentsOf: valid)
                record.recomputeVisibility(isActive: isActive)
            }
            note(.erase(id), of: change)

        case .set(let id, let value):
            // Deleting is a tombstone: a stroke comes back when the change that deleted it is undone.
            guard value.isValid, value != .deleted(false) else { return }
            update(id, delta: &delta) { record, _ in
                record.attributes[value.attribute, default: AttributeHistory()]
                    .insert(.init(position: position, value: value))
            }
            note(.attribute(id, value.attribute), of: change)

        case .undo(let target), .redo(let target):
            guard BoardLimits.acceptsUndo(of: target, in: change) else { return }
            if case .undo = operation {
                activity[target, default: LWWRegister(true, at: .origin)].set(false, at: position)
            } else {
                activity[target, default: LWWRegister(true, at: .origin)].set(true, at: position)
            }
            refreshActivity(of: target, delta: &delta)

        case .clear:
            clears.insert(position, at: clears.firstIndex { $0 > position } ?? clears.endIndex)
            note(.clear, of: change)
            updateLatestActiveClear(delta: &delta)

        case .settle(let through, let inactive):
            guard
                let entry = BoardLimits.settlement(
                    through: through,
                    inactive: inactive,
                    in: change,
                    index: Int(position.index)
                )
            else { return }
            settle(entry, by: change.replica, delta: &delta)

        case .addText(let style, let corner):
            guard BoardLimits.acceptsText(style, at: corner) else { return }
            let id = StrokeID(change: change, index: position.index)
            let added = StrokeRecord.Added(
                position: position,
                style: StrokeStyle(colour: style.colour, width: style.size),
                points: [corner],
                pressures: nil,
                kind: .text
            )
            update(id, delta: &delta) { record, isActive in record.add(added, isActive: isActive) }
            refreshText(of: id, delta: &delta)
            note(.stroke(id), of: change)

        case .addImage(let image, let corner):
            guard image.isValid, BoardLimits.accepts([corner], nil) else { return }
            let id = StrokeID(change: change, index: position.index)
            let added = StrokeRecord.Added(
                position: position,
                style: StrokeStyle(colour: .black, width: image.width),
                points: [corner],
                pressures: nil,
                kind: .image
            )
            images[id] = image
            update(id, delta: &delta) { record, isActive in record.add(added, isActive: isActive) }
            note(.stroke(id), of: change)

        case .insertText(let box, let anchor, let text):
            guard BoardLimits.acceptsInsertion(text),
                texts[box, default: BoxText()].sequence.insert(text, id: position, after: anchor)
            else { return }
            refreshText(of: box, delta: &delta)
            note(.text(box), of: change)

        case .deleteText(let box, let ranges):
            guard BoardLimits.acceptsDeletion(ranges) else { return }
            texts[box, default: BoxText()].deletes[change, default: []].append(contentsOf: ranges)
            refreshText(of: box, delta: &delta)
            note(.text(box), of: change)

        case .unknown:
            // Kept by the change log so it syncs on and takes effect after an upgrade; no effect here.
            return
        }
    }

    /// Records that `change`, the change being applied, did `effect`.
    mutating func note(_ effect: Effect, of change: ChangeID) {
        assert(applying?.change == change, "effects are noted only for the change being applied")
        applying?.effects.append(effect)
    }

    /// What `change` touched: applied, or being applied.
    func effects(of change: ChangeID) -> [Effect] {
        if let applying, applying.change == change { return applying.effects.all }
        return applied[change]?.all ?? []
    }

    /// Re-evaluates everything `change` touched, after it was undone or redone.
    mutating func revisit(_ change: ChangeID, delta: inout BoardDelta) {
        for effect in effects(of: change) {
            switch effect {
            case .stroke(let id), .attribute(let id, _):
                restack(id, delta: &delta)
            case .append(let id), .erase(let id):
                update(id, delta: &delta) { record, isActive in record.recomputeVisibility(isActive: isActive) }
            case .text(let id):
                refreshText(of: id, delta: &delta)
            case .clear:
                updateLatestActiveClear(delta: &delta)
            }
        }
    }

    /// Recomputes the text a box shows, once the box itself has arrived; text aimed at a stroke shows
    /// nowhere.
    mutating func refreshText(of box: StrokeID, delta: inout BoardDelta) {
        if textsToRefresh != nil {
            textsToRefresh!.insert(box)
            return
        }
        guard records[box]?.added?.isText == true, let index = texts.index(forKey: box) else { return }
        if texts.values[index].recompute(isActive: activeCheck) { delta.touch(box) }
    }

    mutating func updateLatestActiveClear(delta: inout BoardDelta) {
        let latest = clears.last { isActive($0.change) }
        guard latest != latestActiveClear else { return }
        latestActiveClear = latest
        delta.everything = true
        for id in records.keys { restack(id, delta: &delta) }
    }
}

extension OpStamp {
    /// Before every real operation: the default "active" write that undo and redo overwrite.
    static let origin = OpStamp(stamp: .zero, change: ChangeID(replica: ReplicaID(high: 0, low: 0), seq: 1))
}
