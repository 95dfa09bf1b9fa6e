// An author's changes on one board that none of its settles covers yet, and when to settle them: once
// SETTLE_AFTER or more lie below the oldest change still open in the user's undo or redo stack (see
// docs/ARCHITECTURE.md, "When the page settles").

/** How many closed, unsettled changes of its own an author lets gather on a board before it settles them. */
export const SETTLE_AFTER = 256;

export class UnsettledChanges {
  /** The seqs of the author's changes on the board above `through`, ascending. @type {number[]} */
  #seqs = [];
  #through = 0;

  /** The largest `through` of the author's settles on the board: 0 before the first. */
  get through() {
    return this.#through;
  }

  /**
   * Counts a change of the author's on the board; seqs come in increasing order.
   * @param {number} seq
   */
  add(seq) {
    if (seq > this.#through) this.#seqs.push(seq);
  }

  /**
   * Takes note of a settle of the author's on the board: the changes it covers no longer count.
   * @param {number} through
   * - Complexity: O(changes counted so far).
   */
  settle(through) {
    if (through <= this.#through) return;
    this.#through = through;
    this.#seqs.splice(0, countBelow(this.#seqs, through + 1));
  }

  /**
   * How far to settle now: through the change before `bound`, once SETTLE_AFTER or more counted changes
   * lie below it; else null.
   * @param {number} bound the seq of the oldest open change, or the next seq when none is open
   * @returns {number | null}
   * - Complexity: O(log changes counted).
   */
  due(bound) {
    return countBelow(this.#seqs, bound) >= SETTLE_AFTER ? bound - 1 : null;
  }
}

/**
 * How many of the ascending `seqs` are below `bound`.
 * @param {number[]} seqs
 * @param {number} bound
 */
function countBelow(seqs, bound) {
  let low = 0;
  let high = seqs.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (seqs[middle] < bound) low = middle + 1;
    else high = middle;
  }
  return low;
}
