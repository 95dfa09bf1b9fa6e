// A board's history, as Sources/InkwellBoard/Tools/BoardHistory.swift: the board as it was after any of
// its changes, and the one change that brings the board back to such a past state.
//
// The past is rebuilt from the changes this replica holds, in the total order every replica agrees on
// (stamp, then change id): the board after the first k of them. Nothing is rewritten to go back: a restore
// is a new change of the restorer's, made of ordinary operations (docs/ARCHITECTURE.md, "History"), so it
// syncs, merges and is undone like any edit. History reaches back as far as the changes held: a replica
// whose store dropped changes that stopped mattering (a snapshot's compaction) shows the past from there.

import { Board } from './board.js';
import { compareChanges, compareStrokeRefs, parseStrokeId } from './ids.js';
import { copyOperations } from './selection-edits.js';

/**
 * The board's changes in the total order, each once: the history a slider walks.
 * @param {Iterable<object>} changes in the JSON form, any order, repeats allowed
 * @param {string} board the board's name: others' changes are left out
 * @returns {object[]}
 */
export function timeline(changes, board) {
  const seen = new Map();
  for (const change of changes) {
    if (change?.board !== board) continue;
    const key = `${change.id.replica}-${change.id.seq}`;
    if (!seen.has(key)) seen.set(key, change);
  }
  return [...seen.values()].sort(compareChanges);
}

/**
 * The board as it was after the first `count` changes of `history`.
 * @param {object[]} history from `timeline`
 * @param {number} count 0 … history.length
 * @param {string} board
 * @returns {Board}
 * - Complexity: O(size of those changes).
 */
export function boardAt(history, count, board) {
  const past = new Board(board);
  past.applyAll(history.slice(0, Math.max(0, Math.min(count, history.length))));
  return past;
}

/**
 * The operations of one change that make `current` show what `past` showed: strokes shown now and not
 * then are deleted; a stroke shown both times gets back its colour, width, transform and fill, and loses
 * what it shows now that it did not then (an erase, or for a text box a delete of the characters typed
 * since); a stroke shown then that is gone now, or that shows now less than it did (someone erased it
 * since), or has more points (appended since), or a box that lost characters, comes back as a copy of how
 * it was, brush and fill too (no one may undo another's change, so the restorer draws it again). When
 * copies come back, or the strokes kept stack otherwise than they did, every restored stroke gets a z-order
 * in the past's stacking order.
 *
 * The copies' `addStroke`s come first, so the i-th is the change's operation i, named `newStroke(i)`.
 * @param {Board} current
 * @param {Board} past
 * @param {(index: number) => string} newStroke the id the restoring change gives its i-th operation
 * @returns {object[]}
 */
export function restoreOperations(current, past, newStroke) {
  const then = past.strokes();
  const copies = [];
  const edits = [];
  const deletes = [];
  /** Past strokes kept under their own id, in the past's order. */
  const kept = new Set();
  for (const stroke of current.strokes()) {
    if (past.stroke(stroke.id) === null) deletes.push(stroke.id);
  }
  for (const was of then) {
    const now = current.stroke(was.id);
    if (now === null) {
      copies.push(was);
      continue;
    }
    // Text typed since is deleted again; text gone since comes back only with a copy.
    const typed = was.text === now.text ? [] : typedSince(was.id, current, past);
    const lost = subtract(was.pieces, now.pieces).length > 0;
    if (was.points.length !== now.points.length || lost || typed === null) {
      deletes.push(now.id);
      copies.push(was);
      continue;
    }
    kept.add(was.id);
    const extra = was.points.length === 1 ? [] : subtract(now.pieces, was.pieces);
    if (extra.length > 0) edits.push({ op: 'erase', stroke: now.id, intervals: extra });
    if (typed.length > 0) edits.push({ op: 'deleteText', box: now.id, ranges: typed });
    if (now.colour !== was.colour) edits.push({ op: 'set', stroke: now.id, attribute: 'colour', value: was.colour });
    if (now.width !== was.width) edits.push({ op: 'set', stroke: now.id, attribute: 'width', value: was.width });
    if (!now.transform.every((value, i) => value === was.transform[i])) {
      edits.push({ op: 'set', stroke: now.id, attribute: 'transform', value: [...was.transform] });
    }
    // No fill then is a fill of colour 0 now.
    if (now.fill !== was.fill) edits.push({ op: 'set', stroke: now.id, attribute: 'fill', value: was.fill ?? 0 });
  }
  const operations = copyOperations(copies, [0, 0], newStroke);
  operations.push(...edits);
  for (const id of byStrokeOrder(deletes)) operations.push({ op: 'set', stroke: id, attribute: 'deleted', value: true });
  // The kept strokes' order now, against the past's.
  const keptNow = current.strokes().filter((stroke) => kept.has(stroke.id)).map((stroke) => stroke.id);
  const keptThen = then.filter((stroke) => kept.has(stroke.id)).map((stroke) => stroke.id);
  if (copies.length > 0 || keptNow.some((id, i) => id !== keptThen[i])) {
    let copy = 0;
    then.forEach((was, z) => {
      const id = kept.has(was.id) ? was.id : newStroke(copy++);
      operations.push({ op: 'set', stroke: id, attribute: 'zOrder', value: z });
    });
  }
  return operations;
}

/**
 * The characters a box shows now and did not in `past`, one range each, or null when it showed some that
 * it does not now.
 * @param {string} box
 * @param {Board} current
 * @param {Board} past
 * @returns {{run: string, from: number, to: number}[] | null}
 */
function typedSince(box, current, past) {
  const key = ({ run, offset }) => `${run}:${offset}`;
  const then = new Set(past.visibleCharacters(box).map(key));
  const now = current.visibleCharacters(box);
  const shown = new Set(now.map(key));
  for (const character of then) if (!shown.has(character)) return null;
  const since = now.filter((character) => !then.has(key(character)));
  return since.map(({ run, offset }) => ({ run, from: offset, to: offset + 1 }));
}

/** The parts of `a` outside `b` (both sorted, disjoint intervals), by comparisons only. */
function subtract(a, b) {
  const result = [];
  let j = 0;
  for (const [lower, upper] of a) {
    let cursor = lower;
    while (j < b.length && b[j][1] <= cursor) j++;
    for (let k = j; k < b.length && b[k][0] < upper; k++) {
      if (b[k][0] > cursor) result.push([cursor, b[k][0]]);
      if (b[k][1] > cursor) cursor = b[k][1];
    }
    if (cursor < upper) result.push([cursor, upper]);
  }
  return result;
}

function byStrokeOrder(ids) {
  return [...new Set(ids)].sort((a, b) => compareStrokeRefs(parseStrokeId(a), parseStrokeId(b)));
}
