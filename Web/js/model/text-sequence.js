// A text that several people edit at once, each keeping every character they typed: Swift's
// `TextSequence` (Sources/InkwellSync/CRDT/TextSequence.swift), a replicated growable array of runs, held
// to the same text by Conformance/text.json.
//
// Each insert is a run of characters (Unicode code points, as Swift counts scalars) made by one operation
// ({stamp, change, index}), placed after a character (an anchor: {run, offset}) or at the start. An anchor
// names its run by the operation's id alone ({change, index}), as an operation on the board names a stroke:
// the stamp only orders a run among its siblings. Runs after the same anchor go newest first, so text typed
// at a cursor goes where the cursor is and a word typed forwards stays whole however others type beside it.
// A delete hides characters for good. The state is a set of inserts and a set of deletes: any order, any
// repeats, the same text.

import { compareStamps } from './stamp.js';
import { compareChangeIds } from './ids.js';

/** The most characters one insert may carry: a longer one is ignored everywhere alike. */
export const MAXIMUM_RUN_LENGTH = 100_000;

/**
 * @typedef {{change: {replica: string, seq: number}, index: number}} OperationId an operation: its change and
 *   its index there (Swift's `OperationID`)
 * @typedef {OperationId & {stamp: {wall: number, counter: number}}} RunId an insert's full id (Swift's `OpStamp`)
 * @typedef {{run: OperationId, offset: number}} Anchor a character: its run, and its offset in the run
 */

/** The total order of operations (Swift's `OpStamp`): stamp, change id, index. */
export function compareRunIds(a, b) {
  return compareStamps(a.stamp, b.stamp) || compareChangeIds(a.change, b.change) || a.index - b.index;
}

/**
 * A run's key: `<replica>-<seq>-<index>`, the form of a stroke id, so a board's operations name runs with it.
 * Any stamp on `id` is left out: a run is its operation.
 * @param {OperationId} id
 */
export function operationKey(id) {
  return `${id.change.replica}-${id.change.seq}-${id.index}`;
}

/** The operation id alone, frozen: every anchor in the run shares it. @param {OperationId} id */
function operationOf(id) {
  return Object.freeze({ change: Object.freeze({ replica: id.change.replica, seq: id.change.seq }), index: id.index });
}

/** A copy the sequence owns, in the stamp-less form. @param {Anchor} anchor */
function anchorOf(anchor) {
  return { run: operationOf(anchor.run), offset: anchor.offset };
}

function anchorKey(anchor) {
  return anchor === null ? '' : `${operationKey(anchor.run)}:${anchor.offset}`;
}

export class TextSequence {
  /**
   * The runs by operation key; `operation` is the stamp-less id that its characters' anchors share.
   * @type {Map<string, {id: RunId, operation: OperationId, after: Anchor | null, scalars: string[]}>}
   */
  #runs = new Map();
  /** Deleted offsets by run key: sorted, disjoint [from, to) ranges. @type {Map<string, [number, number][]>} */
  #deleted = new Map();

  /**
   * Inserts `text` as the run made by the operation `id` after `after` (null: at the start); ignored when the
   * run is known, empty, too long, or placed after itself.
   * @param {string} text
   * @param {RunId} id
   * @param {Anchor | null} after
   * @returns {boolean} whether it was new
   */
  insert(text, id, after) {
    const key = operationKey(id);
    const scalars = Array.from(text);
    if (this.#runs.has(key) || scalars.length === 0 || scalars.length > MAXIMUM_RUN_LENGTH) return false;
    if (after !== null && operationKey(after.run) === key) return false;
    this.#runs.set(key, { id, operation: operationOf(id), after: after === null ? null : anchorOf(after), scalars });
    return true;
  }

  /**
   * Hides offsets `from`..<`to` of run `run`, arrived or not.
   * @param {OperationId} run
   * @param {number} from
   * @param {number} to
   * @returns {boolean} whether it hid anything not hidden before
   */
  delete(run, from, to) {
    if (!(from < to)) return false;
    const key = operationKey(run);
    const ranges = this.#deleted.get(key) ?? [];
    if (ranges.some(([lower, upper]) => lower <= from && to <= upper)) return false;
    const sorted = [...ranges, [from, to]].sort((a, b) => a[0] - b[0]);
    const merged = [];
    for (const range of sorted) {
      const last = merged[merged.length - 1];
      if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
      else merged.push([range[0], range[1]]);
    }
    this.#deleted.set(key, merged);
    return true;
  }

  /**
   * Every character in order, with its anchor and whether it shows. Iterative: a hostile chain of runs
   * cannot exhaust the stack.
   * @returns {{anchor: Anchor, scalar: string, visible: boolean}[]}
   */
  characters() {
    /** @type {Map<string, {id: RunId, key: string}[]>} */
    const children = new Map();
    for (const [key, run] of this.#runs) {
      if (run.after !== null) {
        const anchorRun = this.#runs.get(operationKey(run.after.run));
        // An anchor past its run's end is malformed: the run never shows.
        if (anchorRun === undefined || run.after.offset >= anchorRun.scalars.length) continue;
      }
      const at = anchorKey(run.after);
      if (!children.has(at)) children.set(at, []);
      children.get(at).push({ id: run.id, key });
    }
    for (const list of children.values()) list.sort((a, b) => compareRunIds(b.id, a.id));
    const result = [];
    const stack = (children.get('') ?? []).slice().reverse().map(({ key }) => [key, 0]);
    while (stack.length > 0) {
      const [key, offset] = stack.pop();
      const run = this.#runs.get(key);
      if (offset >= run.scalars.length) continue;
      const anchor = { run: run.operation, offset };
      const hidden = (this.#deleted.get(key) ?? []).some(([lower, upper]) => lower <= offset && offset < upper);
      result.push({ anchor, scalar: run.scalars[offset], visible: !hidden });
      stack.push([key, offset + 1]);
      const after = children.get(`${key}:${offset}`) ?? [];
      for (let i = after.length - 1; i >= 0; i--) stack.push([after[i].key, 0]);
    }
    return result;
  }

  /** The text as it shows. */
  get text() {
    let text = '';
    for (const character of this.characters()) if (character.visible) text += character.scalar;
    return text;
  }

  /** The anchor of the `index`-th visible character: where text typed after it goes. @returns {Anchor | null} */
  anchorOfVisible(index) {
    let seen = 0;
    for (const character of this.characters()) {
      if (!character.visible) continue;
      if (seen === index) return character.anchor;
      seen += 1;
    }
    return null;
  }
}
