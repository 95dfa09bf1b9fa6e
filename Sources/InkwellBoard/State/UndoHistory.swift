public import InkwellSync

/// One user's undo and redo stacks on one board: which of their own changes to undo or redo next.
///
/// Local to a device and never synced: the undo and redo *operations* it returns are ordinary
/// changes that sync like any other. Only changes newer than the baseline can be undone.
public struct UndoHistory: Hashable, Sendable {
    /// Undoable changes, oldest first.
    public private(set) var done: [ChangeID] = []
    /// Undone changes that can be redone, most recently undone last.
    public private(set) var undone: [ChangeID] = []
    /// How many changes to remember.
    public let capacity: Int

    public init(capacity: Int = 500) {
        precondition(capacity > 0, "an undo history holds at least one change")
        self.capacity = capacity
    }

    public var canUndo: Bool { !done.isEmpty }
    public var canRedo: Bool { !undone.isEmpty }

    /// Records a change the user just made; a new action clears what could be redone.
    public mutating func record(_ change: ChangeID) {
        done.append(change)
        if done.count > capacity { done.removeFirst(done.count - capacity) }
        undone.removeAll()
    }

    /// The operation that undoes the user's latest change, if any.
    public mutating func undo() -> BoardOperation? {
        guard let change = done.popLast() else { return nil }
        undone.append(change)
        return .undo(change)
    }

    /// The operation that redoes the change undone last, if any.
    public mutating func redo() -> BoardOperation? {
        guard let change = undone.popLast() else { return nil }
        done.append(change)
        return .redo(change)
    }

    /// Forgets changes that a baseline has compacted: they can no longer be undone.
    public mutating func forget(where isCompacted: (ChangeID) -> Bool) {
        done.removeAll(where: isCompacted)
        undone.removeAll(where: isCompacted)
    }
}
