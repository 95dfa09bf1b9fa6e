public import InkwellSync

/// One user's undo and redo stacks on one board: which of their own changes to undo or redo next.
///
/// Local to a device and never synced: the undo and redo *operations* it returns are ordinary
/// changes that sync like any other. Only changes newer than the baseline can be undone. A step is one
/// change, or a burst of typing into one text box (each keystroke a change of its own, so others see it
/// at once), which one undo takes back whole. The page's `Web/js/model/undo-history.js` is the same.
public struct UndoHistory: Hashable, Sendable {
    struct Step: Hashable, Sendable {
        var changes: [ChangeID]
        /// The text box the step types into, which later typing may join.
        var box: StrokeID?
        /// Its last change's time, in milliseconds: typing after a longer pause is a new step.
        var wall: UInt64
    }

    /// A pause in typing longer than this starts a new step, as text editors do.
    public static let typingPauseMilliseconds: UInt64 = 5_000

    /// Undoable steps, oldest first.
    private var doneSteps: [Step] = []
    /// Undone steps that can be redone, most recently undone last.
    private var undoneSteps: [Step] = []
    /// How many steps to remember.
    public let capacity: Int

    public init(capacity: Int = 500) {
        precondition(capacity > 0, "an undo history holds at least one change")
        self.capacity = capacity
    }

    /// Every change of the undoable steps, oldest first.
    public var done: [ChangeID] { doneSteps.flatMap(\.changes) }
    /// Every change of the steps that can be redone.
    public var undone: [ChangeID] { undoneSteps.flatMap(\.changes) }
    public var canUndo: Bool { !doneSteps.isEmpty }
    public var canRedo: Bool { !undoneSteps.isEmpty }

    /// Records a change the user just made as a step of its own; a new action clears what could be redone.
    /// `box` is the text box it types into, if it does.
    public mutating func record(_ change: ChangeID, typingInto box: StrokeID? = nil, wallMilliseconds: UInt64 = 0) {
        doneSteps.append(Step(changes: [change], box: box, wall: wallMilliseconds))
        if doneSteps.count > capacity { doneSteps.removeFirst(doneSteps.count - capacity) }
        undoneSteps.removeAll()
    }

    /// Records more typing into `box`: it joins the latest step when that step types into the same box, its
    /// burst was not ended, nothing was undone since and the typing did not pause for longer than
    /// ``typingPauseMilliseconds``; else it is a step of its own.
    public mutating func join(_ change: ChangeID, typingInto box: StrokeID, wallMilliseconds: UInt64 = 0) {
        guard let latest = doneSteps.last, latest.box == box, undoneSteps.isEmpty,
            wallMilliseconds <= latest.wall + Self.typingPauseMilliseconds
        else {
            record(change, typingInto: box, wallMilliseconds: wallMilliseconds)
            return
        }
        doneSteps[doneSteps.count - 1].changes.append(change)
        doneSteps[doneSteps.count - 1].wall = wallMilliseconds
    }

    /// Ends the burst of typing in progress (its editor closed): more typing into its box is a new step.
    public mutating func endBurst() {
        guard !doneSteps.isEmpty else { return }
        doneSteps[doneSteps.count - 1].box = nil
    }

    /// The operations that undo the user's latest step, newest change first, if any.
    public mutating func undo() -> [BoardOperation]? {
        guard let step = doneSteps.popLast() else { return nil }
        undoneSteps.append(step)
        return step.changes.reversed().map { .undo($0) }
    }

    /// The operations that redo the step undone last, if any.
    public mutating func redo() -> [BoardOperation]? {
        guard let step = undoneSteps.popLast() else { return nil }
        doneSteps.append(step)
        return step.changes.map { .redo($0) }
    }

    /// Forgets changes that a baseline has compacted: they can no longer be undone.
    public mutating func forget(where isCompacted: (ChangeID) -> Bool) {
        func keep(_ steps: [Step]) -> [Step] {
            steps.compactMap { step in
                let changes = step.changes.filter { !isCompacted($0) }
                return changes.isEmpty ? nil : Step(changes: changes, box: step.box, wall: step.wall)
            }
        }
        doneSteps = keep(doneSteps)
        undoneSteps = keep(undoneSteps)
    }
}
