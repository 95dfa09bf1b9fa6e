// One user's undo and redo stacks on one board, as Sources/InkwellBoard/State/UndoHistory.swift.
//
// Local to a device and never synced: the undo and redo *operations* it returns go into ordinary
// changes that sync like any other. A step is one change, or a burst of typing into one text box (each
// keystroke its own change, so others see it at once), which one undo takes back whole. Undoing a clear
// or a partial erase is nothing special: each was a change, and undo deactivates it.

/** @typedef {import('./ids.js').ChangeId} ChangeId */
/**
 * @typedef {{op: 'undo' | 'redo', change: ChangeId}} UndoOperation
 * @typedef {{changes: ChangeId[], box: string | null, wall: number}} Step `wall`: its last change's time
 */

/** A pause in typing longer than this starts a new step, as text editors do. */
export const TYPING_PAUSE_MILLISECONDS = 5_000;

export class UndoHistory {
  /** Undoable steps, oldest first: each one or more changes, and the text box it types into, if any. @type {Step[]} */
  #done = [];
  /** Undone steps that can be redone, most recently undone last. @type {Step[]} */
  #undone = [];
  #letGo = false;

  /** @param {number} [capacity] how many steps to remember */
  constructor(capacity = 500) {
    if (!(Number.isInteger(capacity) && capacity > 0)) {
      throw new RangeError('an undo history holds at least one change');
    }
    this.capacity = capacity;
  }

  /** Every change of the undoable steps, oldest first. @returns {ChangeId[]} */
  get done() {
    return this.#done.flatMap((step) => step.changes.map((change) => ({ ...change })));
  }

  /** Every change of the steps that can be redone. @returns {ChangeId[]} */
  get undone() {
    return this.#undone.flatMap((step) => step.changes.map((change) => ({ ...change })));
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
    let oldest = null;
    for (const step of [...this.#done, ...this.#undone]) {
      for (const change of step.changes) if (oldest === null || change.seq < oldest.seq) oldest = change;
    }
    return oldest === null ? null : { ...oldest };
  }

  /**
   * Whether older steps were let go (past the capacity, or settled): when nothing is left to undo, the
   * user still has changes here, only ones undo no longer reaches.
   */
  get letGo() {
    return this.#letGo;
  }

  /**
   * Records a change the user just made as a step of its own; a new action clears what could be redone.
   * @param {ChangeId} change
   * @param {string | null} [box] the text box the change types into, which later typing may join
   * @param {number} [wall] the change's time in milliseconds (its stamp's wall)
   */
  record(change, box = null, wall = 0) {
    this.#done.push({ changes: [{ replica: change.replica, seq: change.seq }], box, wall });
    if (this.#done.length > this.capacity) {
      this.#done.splice(0, this.#done.length - this.capacity);
      this.#letGo = true;
    }
    this.#undone = [];
  }

  /**
   * Records more typing into `box`: it joins the latest step when that step types into the same box, its
   * burst was not ended, nothing was undone since and the typing did not pause for longer than
   * TYPING_PAUSE_MILLISECONDS, so one undo takes back a burst of typing; else it is a step of its own.
   * @param {ChangeId} change
   * @param {string} box
   * @param {number} [wall] the change's time in milliseconds (its stamp's wall)
   */
  join(change, box, wall = 0) {
    const latest = this.#done.at(-1);
    if (latest === undefined || latest.box !== box || this.#undone.length > 0 || wall - latest.wall > TYPING_PAUSE_MILLISECONDS) {
      this.record(change, box, wall);
      return;
    }
    latest.changes.push({ replica: change.replica, seq: change.seq });
    latest.wall = wall;
  }

  /**
   * Adds a change to the latest step: a part of the same action, cut into several changes because it was
   * too large for one (js/model/change-parts.js), which one undo takes back whole.
   * @param {ChangeId} change
   * @param {number} [wall] the change's time in milliseconds (its stamp's wall)
   */
  extend(change, wall = 0) {
    const latest = this.#done.at(-1);
    if (latest === undefined) {
      this.record(change, null, wall);
      return;
    }
    latest.changes.push({ replica: change.replica, seq: change.seq });
    latest.wall = wall;
  }

  /** Ends the burst of typing in progress (the editor closed): more typing into its box is a new step. */
  endBurst() {
    const latest = this.#done.at(-1);
    if (latest !== undefined) latest.box = null;
  }

  /**
   * The operations that undo the user's latest step, newest change first, if any.
   * @returns {UndoOperation[] | null}
   */
  undo() {
    const step = this.#done.pop();
    if (step === undefined) return null;
    this.#undone.push(step);
    return undoing(step);
  }

  /**
   * The operations that undo the latest step when it begins with `change`, which is then gone: an action
   * abandoned midway, which redo must not bring back. Null when another step is the latest.
   * @param {ChangeId} change
   * @returns {UndoOperation[] | null}
   */
  withdraw(change) {
    const step = this.#done.at(-1);
    const first = step?.changes[0];
    if (first === undefined || first.replica !== change.replica || first.seq !== change.seq) return null;
    this.#done.pop();
    return undoing(step);
  }

  /**
   * The operations that redo the step undone last, if any.
   * @returns {UndoOperation[] | null}
   */
  redo() {
    const step = this.#undone.pop();
    if (step === undefined) return null;
    this.#done.push(step);
    return step.changes.map((change) => ({ op: 'redo', change: { ...change } }));
  }

  /**
   * Forgets changes that can no longer be undone or redone: settled, or compacted into a baseline.
   * @param {(change: ChangeId) => boolean} isClosed
   */
  forget(isClosed) {
    let forgot = false;
    const keep = (steps) =>
      steps.flatMap((step) => {
        const changes = step.changes.filter((change) => !isClosed(change));
        if (changes.length < step.changes.length) forgot = true;
        return changes.length === 0 ? [] : [{ changes, box: step.box, wall: step.wall }];
      });
    this.#done = keep(this.#done);
    this.#undone = keep(this.#undone);
    if (forgot) this.#letGo = true;
  }
}

/** The operations that undo a step's changes, newest first. @returns {UndoOperation[]} */
function undoing(step) {
  return step.changes.toReversed().map((change) => ({ op: 'undo', change: { ...change } }));
}
