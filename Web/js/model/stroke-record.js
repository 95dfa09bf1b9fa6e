// Everything a board knows about one stroke, as Sources/InkwellBoard/State/StrokeRecord.swift,
// including operations that arrived before the stroke itself.
//
// `points`, `pressures`, `hidden` and `pieces` are derived from the add, the appends, the erases and
// which changes are active; they are rebuilt when those change.
//
// A text box and an image are stroke records too, so they have a stroke's attributes, stacking, clear, undo
// and selection: a box's add is an `addText` (`added.kind` 'text'), its width the font size; an image's an
// `addImage` (`added.kind` 'image', `added.image` what it names), its width its box's. Either is a box: its
// one point the corner `at`. Appends and erases aimed at a box are kept, as for any stroke, but never move
// or hide it: its one piece is always [0, 0]. Text is in `text` (box-text.js), kept per record whatever the
// add turns out to be; only a text box shows it.

import { compareChangeIds } from './ids.js';
import { gaps as intervalGaps, insertInterval, setContains as intervalSetContains } from '../geometry/intervals.js';

/**
 * @typedef {import('../geometry/intervals.js').Interval} Interval
 * @typedef {import('./ids.js').Position} Position
 * @typedef {{
 *   kind: 'ink' | 'text' | 'image', position: Position, colour: number, width: number,
 *   brush: import('./board-brush.js').Brush, points: Interval[], pressures: number[] | null,
 *   image?: import('./board-image.js').BoardImage
 * }} Added a box's brush is always a pen
 * @typedef {{key: string, seq: number, points: Interval[], pressures: number[] | null, firstIndex: number}} Append
 * @typedef {{
 *   id: string, added: Added | null, appends: Append[],
 *   erases: Map<string, {change: import('./ids.js').ChangeId, intervals: Interval[]}>,
 *   attributes: Map<string, import('./attribute-history.js').Write[]>,
 *   points: [number, number][], pressures: number[] | null, hidden: Interval[], pieces: Interval[],
 *   text: import('./box-text.js').BoxText | null
 * }} StrokeRecord
 * @typedef {(changeKey: string) => boolean} IsActive
 */

/**
 * An empty record for a stroke that has only been mentioned so far.
 * @param {string} id
 * @returns {StrokeRecord}
 */
export function newRecord(id) {
  return {
    id,
    added: null,
    appends: [],
    erases: new Map(),
    attributes: new Map(),
    points: [],
    pressures: null,
    hidden: [],
    pieces: [],
    text: null,
  };
}

/**
 * Whether the record's add has arrived and made a box (a text box or an image): one point, its corner,
 * that appends and erases never reach.
 * @param {StrokeRecord} record
 */
export function isBox(record) {
  return record.added !== null && record.added.kind !== 'ink';
}

/**
 * Whether the record's add has arrived and made a text box, the one element that shows text.
 * @param {StrokeRecord} record
 */
export function isText(record) {
  return record.added !== null && record.added.kind === 'text';
}

/**
 * Lays out the points again: the add's, then every append's in seq order.
 * @param {StrokeRecord} record
 * - Complexity: O(points).
 */
export function layOutPoints(record) {
  if (record.added === null) return;
  record.points = record.added.points.slice();
  record.pressures = record.added.pressures === null ? null : record.added.pressures.slice();
  // A box is its corner alone: appends never reach it.
  if (isBox(record)) return;
  for (let index = 0; index < record.appends.length; index++) placeAppend(record, index);
}

/** Adds the points of `appends[index]` after the current points. */
function placeAppend(record, index) {
  const append = record.appends[index];
  append.firstIndex = record.points.length;
  for (const point of append.points) record.points.push(point);
  if (record.pressures !== null) {
    // A stroke with pressure keeps one value per point; an append without any repeats the last.
    const pressures = record.pressures;
    const last = pressures.length > 0 ? pressures[pressures.length - 1] : 1;
    for (let i = 0; i < append.points.length; i++) {
      pressures.push(append.pressures === null ? last : append.pressures[i]);
    }
  }
}

/**
 * Takes in an append: lays its points out and updates what is visible.
 * @param {StrokeRecord} record
 * @param {Append} append
 * @param {IsActive} isActive
 * - Complexity: O(appended points) for the creator's next append, as while drawing; O(points) otherwise.
 */
export function appendToRecord(record, append, isActive) {
  const wentLast = insertAppend(record, append);
  if (record.added === null || isBox(record)) return;
  if (wentLast) placeAppend(record, record.appends.length - 1);
  else layOutPoints(record);
  if (wentLast && isActive(append.key)) recomputePieces(record);
  else recomputeVisibility(record, isActive);
}

/**
 * Takes out the appends of changes after `seq`, void now that a settle through `seq` closed the stroke,
 * and lays out what is left.
 * @param {StrokeRecord} record
 * @param {number} seq
 * @param {IsActive} isActive
 * - Complexity: O(points).
 */
export function dropAppendsAfter(record, seq, isActive) {
  record.appends = record.appends.filter((append) => append.seq <= seq);
  if (record.added === null) return;
  layOutPoints(record);
  recomputeVisibility(record, isActive);
}

/** Inserts an append in seq order; returns whether it went last. */
function insertAppend(record, append) {
  const appends = record.appends;
  if (appends.length === 0 || appends[appends.length - 1].seq < append.seq) {
    appends.push(append);
    return true;
  }
  let position = appends.findIndex((other) => other.seq > append.seq);
  if (position === -1) position = appends.length;
  appends.splice(position, 0, append);
  return position === appends.length - 1;
}

/**
 * Recomputes `hidden` and `pieces` from the erases and appends that are active.
 * @param {StrokeRecord} record
 * @param {IsActive} isActive
 * - Complexity: O(e·i) for e erase intervals held in i merged intervals, plus O(appends).
 */
export function recomputeVisibility(record, isActive) {
  let hidden = [];
  if (isBox(record)) {
    // Erases and appends aimed at a box hide nothing of it.
    record.hidden = hidden;
    recomputePieces(record);
    return;
  }
  const erases = [...record.erases].sort((a, b) => compareChangeIds(a[1].change, b[1].change));
  for (const [key, erase] of erases) {
    if (!isActive(key)) continue;
    for (const interval of erase.intervals) hidden = insertInterval(hidden, interval);
  }
  for (const append of record.appends) {
    if (isActive(append.key)) continue;
    hidden = insertInterval(hidden, [append.firstIndex - 1, append.firstIndex + append.points.length]);
  }
  record.hidden = hidden;
  recomputePieces(record);
}

/**
 * Recomputes `pieces` from `hidden`: positive-length parameter intervals, or `[0, 0]` for a dot.
 * @param {StrokeRecord} record
 */
export function recomputePieces(record) {
  if (record.points.length === 1) {
    record.pieces = intervalSetContains(record.hidden, 0) ? [] : [[0, 0]];
  } else {
    record.pieces = intervalGaps(record.hidden, 0, Math.max(record.points.length - 1, 0));
  }
}

/**
 * Whether nothing of the stroke shows once the erases whose change `erasing` accepts, and the appends
 * whose seq `hidingAppend` accepts, hide their parts: `recomputeVisibility` on chosen changes.
 * @param {StrokeRecord} record
 * @param {(change: import('./ids.js').ChangeId) => boolean} erasing
 * @param {(seq: number) => boolean} hidingAppend
 * - Complexity: O(e·i) for e erase intervals held in i merged intervals, plus O(appends).
 */
export function isErasedAway(record, erasing, hidingAppend) {
  if (isBox(record)) return false;
  let hidden = [];
  const erases = [...record.erases.values()].sort((a, b) => compareChangeIds(a.change, b.change));
  for (const erase of erases) {
    if (!erasing(erase.change)) continue;
    for (const interval of erase.intervals) hidden = insertInterval(hidden, interval);
  }
  for (const append of record.appends) {
    if (!hidingAppend(append.seq)) continue;
    hidden = insertInterval(hidden, [append.firstIndex - 1, append.firstIndex + append.points.length]);
  }
  if (record.points.length === 1) return intervalSetContains(hidden, 0);
  return intervalGaps(hidden, 0, Math.max(record.points.length - 1, 0)).length === 0;
}
