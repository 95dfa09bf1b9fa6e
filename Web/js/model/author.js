// The local author: the one place this browser's changes get their ids and stamps, as Swift's
// `LocalAuthor` (Sources/InkwellClient), plus the user's undo and redo stacks per board, and the settles
// that close what those stacks can no longer reach.
//
// Seqs are contiguous per replica; stamps come from a hybrid logical clock that is told about every
// remote stamp, so a new change sorts after everything this browser has seen.

import { HybridLogicalClock } from './clock.js';
import { newReplicaId, parseReplicaId, strokeId } from './ids.js';
import { readOperation } from './operation.js';
import { ZERO_STAMP } from './stamp.js';
import { UndoHistory } from './undo-history.js';
import { UnsettledChanges } from './unsettled-changes.js';

/**
 * @typedef {import('./ids.js').ChangeId} ChangeId
 * @typedef {import('./stamp.js').Stamp} Stamp
 * @typedef {{id: ChangeId, stamp: Stamp, board: string, operations: object[]}} Change
 * @typedef {string | {board: string}} BoardRef a board's name, or a `Board`
 */

export class Author {
  #seq;
  #clock;
  #now;
  #undoCapacity;
  /** @type {Map<string, UndoHistory>} */
  #histories = new Map();
  /** @type {Map<string, UnsettledChanges>} */
  #unsettled = new Map();

  /**
   * Resumes an author from what the store holds (a new replica starts at seq 0 and the zero stamp).
   * @param {{
   *   replica?: string, lastSeq?: number, latest?: Stamp,
   *   now?: () => number, undoCapacity?: number, maximumForwardSkewMilliseconds?: number
   * }} [options] `now` reads wall time in milliseconds since 1970: inject a fake one in tests
   */
  constructor({
    replica = newReplicaId(),
    lastSeq = 0,
    latest = ZERO_STAMP,
    now = () => Date.now(),
    undoCapacity = 500,
    maximumForwardSkewMilliseconds,
  } = {}) {
    const parsed = parseReplicaId(replica);
    if (parsed === null) throw new TypeError('a replica id is 32 hex digits');
    if (!(Number.isSafeInteger(lastSeq) && lastSeq >= 0)) throw new RangeError('lastSeq is a whole number');
    /** This author's replica id. */
    this.replica = parsed;
    this.#seq = lastSeq;
    this.#clock = new HybridLogicalClock({ latest, maximumForwardSkewMilliseconds });
    this.#now = now;
    this.#undoCapacity = undoCapacity;
  }

  /** The seq of the last change made. */
  get seq() {
    return this.#seq;
  }

  /** The clock, for its `latest` stamp and `diagnostics`. */
  get clock() {
    return this.#clock;
  }

  /**
   * Makes this author's next change to a board. It becomes an undo step unless it is only undo/redo
   * (moves in the history itself), only appends (the stroke's add is the step: undoing it hides the
   * appends too) or only settles, or `undoable` says otherwise. A settle in it closes what it covers.
   *
   * The change is returned, not applied: record it, apply it to the board and send it like any other.
   * @param {BoardRef} board
   * @param {object[]} operations in the JSON form of Conformance/board.json
   * @param {{undoable?: boolean, continues?: boolean}} [options] `continues`: the change is a later part of
   *   the action the previous change began (js/model/change-parts.js), so it joins that undo step
   * @returns {Change}
   * @throws {TypeError} for an empty board name or no operations; then no seq or stamp is used up
   */
  makeChange(board, operations, { undoable = isUndoStep(operations), continues = false } = {}) {
    const name = boardName(board);
    if (!Array.isArray(operations) || operations.length === 0) throw new TypeError('a change has operations');
    const change = {
      id: { replica: this.replica, seq: this.#seq + 1 },
      stamp: this.#clock.next(this.#now()),
      board: name,
      operations: [...operations],
    };
    this.#seq += 1;
    this.unsettled(name).add(change.id.seq);
    if (undoable && continues) this.history(name).extend(change.id, change.stamp.wall);
    else if (undoable) noteStep(this.history(name), change);
    const through = settledBy(change);
    if (through !== null) this.settled(name, through);
    return change;
  }

  /**
   * Takes note of a stamp made elsewhere (call it for every remote change applied), so later changes sort
   * after it. One beyond the protocol's lead of `now` is not witnessed (see clock.js).
   * @param {Stamp} stamp
   * @param {number} [now] the time to measure the lead from: the server-corrected time where it is known
   * @returns {import('./clock.js').Skew | null} the skew when the stamp is far ahead of this clock: log it
   */
  witness(stamp, now = this.#now()) {
    return this.#clock.witness(stamp, now);
  }

  /**
   * The change for Ctrl+Z: undoes this user's latest undoable change on the board, or null if none.
   * @param {BoardRef} board
   * @returns {Change | null}
   */
  undo(board) {
    const operations = this.history(board).undo();
    return operations === null ? null : this.makeChange(board, operations, { undoable: false });
  }

  /**
   * The change that takes back an abandoned action: undoes the latest step if it begins with `change`, and
   * leaves nothing to redo of it; null when another step is the latest.
   * @param {BoardRef} board
   * @param {ChangeId} change
   * @returns {Change | null}
   */
  withdraw(board, change) {
    const operations = this.history(board).withdraw(change);
    return operations === null ? null : this.makeChange(board, operations, { undoable: false });
  }

  /**
   * The change for Shift+Ctrl+Z: redoes the change undone last on the board, or null if none.
   * @param {BoardRef} board
   * @returns {Change | null}
   */
  redo(board) {
    const operations = this.history(board).redo();
    return operations === null ? null : this.makeChange(board, operations, { undoable: false });
  }

  /**
   * The change that settles this user's changes on the board, once 256 or more of them that are
   * not settled yet lie below the oldest one open in the undo or redo stack (below the next seq when
   * both are empty); else null. It settles through the change before that one, and is no undo step.
   *
   * The change is returned, not applied: record it, apply it to the board and send it like any other.
   * @param {import('./board.js').Board} board the board as it is now: the settle lists what it shows inactive
   * @returns {Change | null}
   * - Complexity: O(log n) while none is due, for n changes not settled yet.
   */
  settle(board) {
    const name = boardName(board);
    const oldest = this.history(name).oldestOpen;
    const through = this.unsettled(name).due(oldest === null ? this.#seq + 1 : oldest.seq);
    const settle = through === null ? null : board.settlement(this.replica, through);
    return settle === null ? null : this.makeChange(board, [settle], { undoable: false });
  }

  /**
   * Takes note of a settle of this author's on a board: the changes it covers can no longer be undone
   * or redone, and no longer count toward the next settle.
   * @param {BoardRef} board
   * @param {number} through
   */
  settled(board, through) {
    this.unsettled(board).settle(through);
    this.history(board).forget((change) => change.seq <= through);
  }

  /**
   * The user's undo history on a board.
   * @param {BoardRef} board
   * @returns {UndoHistory}
   */
  history(board) {
    const name = boardName(board);
    let history = this.#histories.get(name);
    if (history === undefined) {
      history = new UndoHistory(this.#undoCapacity);
      this.#histories.set(name, history);
    }
    return history;
  }

  /**
   * This author's changes on a board that none of its settles covers yet.
   * @param {BoardRef} board
   * @returns {UnsettledChanges}
   */
  unsettled(board) {
    const name = boardName(board);
    let unsettled = this.#unsettled.get(name);
    if (unsettled === undefined) {
      unsettled = new UnsettledChanges();
      this.#unsettled.set(name, unsettled);
    }
    return unsettled;
  }
}

/**
 * Whether a change made of these operations is an undo step of its own.
 * @param {object[]} operations
 */
/**
 * Puts an undoable change in the history: typing into a text box joins the burst of typing into that box
 * before it (unless it paused), a new box starts one, anything else is a step of its own. The same from the
 * change alone, so a reloaded page rebuilds the steps it left (all but where an editor closed mid-burst:
 * there the live page started a new step, `endTyping`).
 * @param {UndoHistory} history
 * @param {{id: ChangeId, operations: object[]}} change
 */
export function noteStep(history, change) {
  const box = typedBox(change);
  const wall = change.stamp?.wall ?? 0;
  if (box !== null && !change.operations.some((operation) => operation.op === 'addText')) {
    history.join(change.id, box, wall);
  } else {
    history.record(change.id, box, wall);
  }
}

/**
 * The text box a change only types into (inserts and deletes of one box, or a new box and its first
 * text), or null.
 * @param {{id: ChangeId, operations: object[]}} change
 * @returns {string | null}
 */
export function typedBox(change) {
  let box = null;
  for (const [index, operation] of change.operations.entries()) {
    let target;
    if (operation?.op === 'addText') target = strokeId(change.id, index);
    else if (operation?.op === 'insertText' || operation?.op === 'deleteText') target = operation.box;
    else return null;
    if (typeof target !== 'string' || (box !== null && box !== target)) return null;
    box = target;
  }
  return box;
}

/**
 * Whether a change made only of `undo`, or only of `redo`, operations: a move in the history itself.
 * @param {object[]} operations
 * @param {'undo' | 'redo'} kind
 */
export function isHistoryMove(operations, kind) {
  return operations.length > 0 && operations.every((operation) => operation?.op === kind);
}

export function isUndoStep(operations) {
  return (
    Array.isArray(operations) &&
    operations.some((operation) => !['undo', 'redo', 'appendPoints', 'settle'].includes(operation?.op))
  );
}

/**
 * How far the well-formed settles in a change reach: their largest `through`, or null if it has none.
 * @param {{id: ChangeId, operations: object[]}} change
 * @returns {number | null}
 */
export function settledBy(change) {
  let through = null;
  for (const op of change.operations) {
    if (op?.op !== 'settle') continue;
    const settle = readOperation(op);
    if (settle?.kind === 'settle' && settle.through < change.id.seq) through = Math.max(through ?? 0, settle.through);
  }
  return through;
}

function boardName(board) {
  const name = typeof board === 'string' ? board : board?.board;
  if (typeof name !== 'string' || name === '') throw new TypeError('a change names its board');
  return name;
}
