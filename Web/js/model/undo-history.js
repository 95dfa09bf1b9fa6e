// One user's undo and redo stacks on one board, as Sources/InkwellBoard/State/UndoHistory.swift.
//
// Local to a device and never synced: the undo and redo *operations* it returns go into ordinary
// changes that sync like any other. Undoing a clear or a partial erase is nothing special: each was a
// change, and undo deactivates it.

/** @typedef {import('./ids.js').ChangeId} ChangeId */
/** @typedef {{op: 'undo' | 'redo', change: ChangeId}} UndoOperation */

export class UndoHistory {
  /** Undoable changes, oldest first. @type {ChangeId[]} */
  #done = [];
  /** Undone changes that can be redone, most recently undone last. @type {ChangeId[]} */
  #undone = [];
  #letGo = false;

  /** @param {number} [capacity] how many changes to remember */
  constructor(capacity = 500) {
    if (!(Number.isInteger(capacity) && capacity > 0)) {
      throw new RangeError('an undo history holds at least one change');
    }
    this.capacity = capacity;
  }

  /** @returns {ChangeId[]} */
  get done() {
    return [...this.#done];
  }

  /** @returns {ChangeId[]} */
  get undone() {
    return [...this.#undone];
  }

  get canUndo() {
    return this.#done.length > 0;
  }

  get canRedo() {
    return this.#undone.length > 0;
  }

  /**
   * The oldest change still open, in either stack, or null when both are empty: the changes before it
   * can never be undone or redone again from here, so they may be settled.
   * @returns {ChangeId | null}
   */
  get oldestOpen() {
    // `done` is oldest first and `undone` newest first: each undo takes the newest step left.
    const done = this.#done[0];
    const undone = this.#undone[this.#undone.length - 1];
    if (done === undefined || undone === undefined) return done ?? undone ?? null;
    return done.seq < undone.seq ? done : undone;
  }

  /**
   * Whether older steps were let go (past the capacity, or settled): when nothing is left to undo, the
   * user still has changes here, only ones undo no longer reaches.
   */
  get letGo() {
    return this.#letGo;
  }

  /**
   * Records a change the user just made; a new action clears what could be redone.
   * @param {ChangeId} change
   */
  record(change) {
    this.#done.push({ replica: change.replica, seq: change.seq });
    if (this.#done.length > this.capacity) {
      this.#done.splice(0, this.#done.length - this.capacity);
      this.#letGo = true;
    }
    this.#undone = [];
  }

  /**
   * The operation that undoes the user's latest change, if any.
   * @returns {UndoOperation | null}
   */
  undo() {
    const change = this.#done.pop();
    if (change === undefined) return null;
    this.#undone.push(change);
    return { op: 'undo', change: { ...change } };
  }

  /**
   * The operation that redoes the change undone last, if any.
   * @returns {UndoOperation | null}
   */
  redo() {
    const change = this.#undone.pop();
    if (change === undefined) return null;
    this.#done.push(change);
    return { op: 'redo', change: { ...change } };
  }

  /**
   * Forgets changes that can no longer be undone or redone: settled, or compacted into a baseline.
   * @param {(change: ChangeId) => boolean} isClosed
   */
  forget(isClosed) {
    const before = this.#done.length + this.#undone.length;
    this.#done = this.#done.filter((change) => !isClosed(change));
    this.#undone = this.#undone.filter((change) => !isClosed(change));
    if (this.#done.length + this.#undone.length < before) this.#letGo = true;
  }
}
