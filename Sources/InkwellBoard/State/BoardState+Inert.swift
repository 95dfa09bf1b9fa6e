import InkwellGeometry
public import InkwellSync

extension BoardState {
    /// The changes among `changes` inside `cut` that no longer matter: dropping them, with the cut standing
    /// for them, leaves the drawing as it is now and after any changes still to come
    /// (docs/ARCHITECTURE.md, "Settling").
    ///
    /// `cut` must be a prefix of every timeline that this board has applied, or that an earlier
    /// compaction dropped as inert; `changes` are changes of this board that it has applied. Changes
    /// outside the cut are never inert, and none is while any change holds an operation of a newer
    /// schema.
    ///
    /// - Complexity: O(size of the changes) plus O(points + erases) for each stroke they add.
    public func inertChanges(among changes: [BoardChange], through cut: VersionVector) -> [ChangeID] {
        // An operation of a newer schema might bring back what this version calls dead.
        let unread = changes.contains { change in
            change.payload.operations.contains { if case .unknown = $0 { true } else { false } }
        }
        guard !unread else { return [] }
        let rule = InertnessRule(board: self, cut: cut, changes: changes)
        // In timeline order, so an undo or redo finds whether the earlier change it aims at is inert.
        var inert: Set<ChangeID> = []
        for change in changes.sorted(by: { $0.id < $1.id }) {
            guard change.payload.board == board, cut.contains(change.id), contains(change.id) else { continue }
            let isInert = change.payload.operations.indices.allSatisfy {
                rule.isInert(change.payload.operations[$0], at: change.opStamp($0), inertBefore: inert)
            }
            if isInert { inert.insert(change.id) }
        }
        return changes.compactMap { inert.contains($0.id) ? $0.id : nil }
    }
}

/// What a cut fixes of a board: which changes' fate is settled within it, and which strokes are dead.
private struct InertnessRule {
    let board: BoardState
    let cut: VersionVector
    /// The latest `clear` whose change is fixed-active: every stroke added before it is dead.
    let latestFixedClear: OpStamp?
    /// Each timeline's changes among those asked about, by seq, with their stamps: a later change bounds
    /// the stamp of an earlier one that is not held.
    let timelines: [ReplicaID: [(seq: UInt64, stamp: Stamp)]]

    init(board: BoardState, cut: VersionVector, changes: [BoardChange]) {
        self.board = board
        self.cut = cut
        var timelines: [ReplicaID: [(seq: UInt64, stamp: Stamp)]] = [:]
        for change in changes where change.payload.board == board.board {
            timelines[change.id.replica, default: []].append((change.id.seq, change.stamp))
        }
        self.timelines = timelines.mapValues { $0.sorted { $0.seq < $1.seq } }
        var latest: OpStamp?
        for clear in board.clears.reversed() where Self.fixedActivity(of: clear.change, in: board, within: cut) == true
        {
            latest = clear
            break
        }
        self.latestFixedClear = latest
    }

    /// Whether the operation at `position`, inside the cut, can never matter again; `inertBefore` are the
    /// inert changes found so far, every earlier change of its timeline among them.
    func isInert(_ operation: BoardOperation, at position: OpStamp, inertBefore: Set<ChangeID>) -> Bool {
        let change = position.change
        switch operation {
        case .addStroke(let style, let points, let pressures):
            return !BoardLimits.acceptsStroke(style, points, pressures)
                || death(of: StrokeID(change: change, index: position.index)) != nil

        case .appendPoints(let id, let points, let pressures):
            return !BoardLimits.acceptsAppend(to: id, by: change, points, pressures)
                || board.settlements[change.replica]?.voids(appendIn: change.seq, toStrokeAddedIn: id.change.seq)
                    == true
                || isGone(id)

        case .erase(let id, let intervals):
            // An erase may be the proof that its stroke was erased away, for a device that still holds the
            // stroke: it goes only with a stroke whose end it cannot have caused, or undone for good.
            return BoardLimits.erasedIntervals(intervals) == nil || fixedActivity(of: change) == false
                || isGoneWithoutProof(id)

        case .set(let id, let value):
            guard value.isValid, value != .deleted(false), fixedActivity(of: change) != false else { return true }
            // Likewise a deletion.
            if value == .deleted(true) { return isGoneWithoutProof(id) }
            guard !isGone(id) else { return true }
            let writes = board.records[id]?.attributes[value.attribute]?.writes ?? []
            return writes.contains { $0.position > position && fixedActivity(of: $0.position.change) == true }

        case .undo(let target), .redo(let target):
            // A settled change's register no longer counts; a change of the cut that this board does not
            // hold is another board's, or was dropped as inert, and never arrives here; and an inert change
            // matters neither active nor not, so turning it on or off does not either.
            return !BoardLimits.acceptsUndo(of: target, in: change)
                || board.settledThrough(of: target.replica) >= target.seq
                || (cut.contains(target) && !board.contains(target))
                || (target.seq < change.seq && inertBefore.contains(target))

        case .clear:
            return fixedActivity(of: change) == false || latestFixedClear.map { $0 > position } ?? false

        case .addText(let style, let corner):
            return !BoardLimits.acceptsText(style, at: corner)
                || death(of: StrokeID(change: change, index: position.index)) != nil

        case .insertText(let box, _, let text):
            // Undone for good, an insert still anchors others' text: it goes only with its box.
            return !BoardLimits.acceptsInsertion(text) || isGone(box) || takesNoText(box)

        case .deleteText(let box, let ranges):
            return !BoardLimits.acceptsDeletion(ranges) || fixedActivity(of: change) == false || isGone(box)
                || takesNoText(box)

        case .addImage(let image, let corner):
            return !image.isValid || !BoardLimits.accepts([corner], nil)
                || death(of: StrokeID(change: change, index: position.index)) != nil

        case .settle, .unknown:
            return false
        }
    }

    /// Active or inactive for good, if a settle inside the cut governs `change`; `nil` otherwise.
    func fixedActivity(of change: ChangeID) -> Bool? {
        Self.fixedActivity(of: change, in: board, within: cut)
    }

    /// A change's governing settle is fixed when its own change is inside the cut: every earlier settle of
    /// its author is then known.
    static func fixedActivity(of change: ChangeID, in board: BoardState, within cut: VersionVector) -> Bool? {
        guard let governing = board.settlements[change.replica]?.governing(change.seq),
            governing.seq <= cut[change.replica]
        else { return nil }
        return governing.isActive(change.seq)
    }

    /// Why a stroke is hidden for good: nothing still to come can show it again.
    enum Death {
        /// Its add is fixed-inactive, or a fixed-active clear came after it: proved by settles and the clear,
        /// which stay.
        case undone, cleared
        /// A fixed-active deletion, or fixed-active erases that leave nothing: proved by those, which stay.
        case deleted, erasedAway
    }

    /// Dead, or never a stroke of this board: its change is inside the cut and added none here.
    func isGone(_ id: StrokeID) -> Bool {
        death(of: id) != nil || neverExists(id)
    }

    /// Gone in a way whose proof does not lie in the erases and deletions aimed at it.
    ///
    /// Without a stroke held here, only what survives compaction counts: a device that dropped the
    /// stroke's change (or took a snapshot that left it out) cannot tell a stroke from a change that added
    /// none, and a device that still holds a stroke needs these erases and deletions as the proof of its
    /// end. So both ask the same of it (``isDeadByItsTimeline(_:)``), and a device that compacted never
    /// calls inert what one that holds everything keeps.
    func isGoneWithoutProof(_ id: StrokeID) -> Bool {
        switch death(of: id) {
        case .undone, .cleared: return true
        case .deleted, .erasedAway: return false
        case nil: return cut.contains(id.change) && isDeadByItsTimeline(id)
        }
    }

    /// Whether a stroke this board does not show as added is dead whatever its change was, by proof that
    /// stays: its change is fixed-inactive (the settle says so), or a later change of its timeline, held
    /// here, comes before the latest fixed-active clear (stamps grow along a timeline, so the stroke does
    /// too).
    func isDeadByItsTimeline(_ id: StrokeID) -> Bool {
        if fixedActivity(of: id.change) == false { return true }
        guard let clear = latestFixedClear, let timeline = timelines[id.change.replica] else { return false }
        var low = 0
        var high = timeline.count
        while low < high {
            let middle = (low + high) / 2
            if timeline[middle].seq <= id.change.seq { low = middle + 1 } else { high = middle }
        }
        guard low < timeline.count else { return false }
        let later = timeline[low]
        return OpStamp(stamp: later.stamp, change: ChangeID(replica: id.change.replica, seq: later.seq)) <= clear
    }

    /// Whether `id` is ink or an image, which text never shows in.
    func takesNoText(_ id: StrokeID) -> Bool {
        board.records[id]?.added.map { !$0.isText } ?? false
    }

    func neverExists(_ id: StrokeID) -> Bool {
        cut.contains(id.change) && board.records[id]?.added == nil
    }

    func death(of id: StrokeID) -> Death? {
        guard let record = board.records[id], let added = record.added else { return nil }
        let addition = fixedActivity(of: added.position.change)
        if addition == false { return .undone }
        if let clear = latestFixedClear, added.position < clear { return .cleared }
        if let deletions = record.attributes[.deleted]?.writes,
            deletions.contains(where: { fixedActivity(of: $0.position.change) == true })
        {
            return .deleted
        }
        // Erased away: settled, so no append can still come, and hidden by what is fixed alone. A box
        // takes no erases.
        guard addition == true, !added.isBox, record.appends.allSatisfy({ fixedActivity(of: $0.change) != nil }) else {
            return nil
        }
        let erased = record.isErasedAway(
            erasing: { fixedActivity(of: $0) == true },
            hidingAppend: { fixedActivity(of: $0) == false }
        )
        return erased ? .erasedAway : nil
    }
}

extension StrokeRecord {
    /// Whether nothing of the stroke shows once the erases `erasing` accepts, and the appends
    /// `hidingAppend` accepts, hide their parts: ``recomputeVisibility(isActive:)`` on chosen changes.
    ///
    /// - Complexity: O(e·i) for e erase intervals held in i merged intervals, plus O(appends).
    func isErasedAway(erasing: (ChangeID) -> Bool, hidingAppend: (ChangeID) -> Bool) -> Bool {
        var hidden = IntervalSet()
        for change in erases.keys.sorted() where erasing(change) {
            for interval in erases[change]! { hidden.insert(interval) }
        }
        for append in appends where hidingAppend(append.change) {
            hidden.insert(
                ParameterInterval(Double(append.firstIndex - 1), Double(append.firstIndex + append.points.count))
            )
        }
        if points.count == 1 { return hidden.contains(0) }
        return hidden.gaps(in: 0, lastParameter).isEmpty
    }
}
