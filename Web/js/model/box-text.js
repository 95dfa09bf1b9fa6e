// The text of a text box, kept in its stroke record (docs/ARCHITECTURE.md, "Text boxes on the board").
//
// Every insert aimed at the box goes into one TextSequence, whatever its change's activity: an undone
// insert stays as the anchor of text typed after it. Deletes are kept by change, so that undoing one brings
// its characters back. What shows (inserts whose change is active, less what active deletes hide) is worked
// out when first read after something touched it, so typing a character at a time, or loading a long
// history of it, costs one walk of the text per read rather than one per keystroke.

import { changeKey } from './ids.js';
import { TextSequence, operationKey } from './text-sequence.js';

/**
 * @typedef {import('./text-sequence.js').Anchor} Anchor
 * @typedef {import('./text-sequence.js').OperationId} OperationId
 * @typedef {import('./text-sequence.js').RunId} RunId
 * @typedef {{run: OperationId, from: number, to: number}} TextRange offsets `from..<to` of a run
 * @typedef {{anchor: Anchor, scalar: string}} ShownCharacter
 * @typedef {{
 *   sequence: TextSequence,
 *   deletes: Map<string, TextRange[]>,
 *   shown: ShownCharacter[] | null,
 *   string: string | null,
 * }} BoxText `deletes` by the change key of the change deleting; `shown` and `string` null until read
 * @typedef {import('./stroke-record.js').StrokeRecord} StrokeRecord
 * @typedef {(changeKey: string) => boolean} IsActive
 */

/**
 * The record's text, created empty when the first text operation for it arrives.
 * @param {StrokeRecord} record
 * @returns {BoxText}
 */
function textOf(record) {
  if (record.text === null) {
    record.text = { sequence: new TextSequence(), deletes: new Map(), shown: null, string: null };
  }
  return record.text;
}

/**
 * Takes in an insert: the run `id` of `text` after `after` (null: at the start).
 * @param {StrokeRecord} record
 * @param {RunId} id
 * @param {Anchor | null} after
 * @param {string} text
 * @returns {boolean} whether the sequence took it (not when it is anchored on itself)
 */
export function typeInto(record, id, after, text) {
  const box = textOf(record);
  if (!box.sequence.insert(text, id, after)) return false;
  invalidateText(record);
  return true;
}

/**
 * Takes in a delete made by the change `key`; several in one change add up.
 * @param {StrokeRecord} record
 * @param {string} key
 * @param {TextRange[]} ranges
 */
export function deleteFrom(record, key, ranges) {
  const box = textOf(record);
  const kept = box.deletes.get(key);
  if (kept === undefined) box.deletes.set(key, [...ranges]);
  else kept.push(...ranges);
  invalidateText(record);
}

/**
 * Forgets what shows, after an insert, a delete or a change of activity touched the text.
 * @param {StrokeRecord} record
 */
export function invalidateText(record) {
  if (record.text === null) return;
  record.text.shown = null;
  record.text.string = null;
}

/**
 * The characters that show, in order, with their anchors. The board's own array: read it, never change it.
 * @param {StrokeRecord} record
 * @param {IsActive} isActive
 * @returns {ShownCharacter[]}
 * - Complexity: O(1) when nothing touched the text since the last read; O(n log n + d log d) for n
 *   characters and d deleted ranges otherwise.
 */
export function shownCharacters(record, isActive) {
  const box = record.text;
  if (box === null) return [];
  if (box.shown === null) box.shown = computeShown(box, isActive);
  return box.shown;
}

/**
 * The text as it shows: '' for a box no one typed in yet.
 * @param {StrokeRecord} record
 * @param {IsActive} isActive
 */
export function shownText(record, isActive) {
  const box = record.text;
  if (box === null) return '';
  if (box.string === null) box.string = shownCharacters(record, isActive).map(({ scalar }) => scalar).join('');
  return box.string;
}

/**
 * Works out what shows from scratch: also what the invariant check compares the cache with.
 * @param {BoxText} box
 * @param {IsActive} isActive
 * @returns {ShownCharacter[]}
 */
export function computeShown(box, isActive) {
  /** Hidden ranges by run key, from the deletes whose change is active. @type {Map<string, [number, number][]>} */
  const hidden = new Map();
  for (const [key, ranges] of box.deletes) {
    if (!isActive(key)) continue;
    for (const { run, from, to } of ranges) {
      const runKey = operationKey(run);
      const list = hidden.get(runKey);
      if (list === undefined) hidden.set(runKey, [[from, to]]);
      else list.push([from, to]);
    }
  }
  for (const [runKey, list] of hidden) hidden.set(runKey, merged(list));
  // A run's characters share one anchor run object: ask about each run once.
  /** @type {Map<OperationId, {active: boolean, hidden: [number, number][]}>} */
  const runs = new Map();
  const shown = [];
  for (const { anchor, scalar } of box.sequence.characters()) {
    let run = runs.get(anchor.run);
    if (run === undefined) {
      run = { active: isActive(changeKey(anchor.run.change)), hidden: hidden.get(operationKey(anchor.run)) ?? [] };
      runs.set(anchor.run, run);
    }
    if (run.active && !covers(run.hidden, anchor.offset)) shown.push({ anchor, scalar });
  }
  return shown;
}

/** Sorted, disjoint ranges covering the same offsets. @param {[number, number][]} ranges */
function merged(ranges) {
  const sorted = ranges.sort((a, b) => a[0] - b[0]);
  const result = [];
  for (const [from, to] of sorted) {
    const last = result[result.length - 1];
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else result.push([from, to]);
  }
  return result;
}

/** Whether an offset lies in one of sorted, disjoint ranges: binary search. */
function covers(ranges, offset) {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ranges[middle][1] <= offset) low = middle + 1;
    else high = middle;
  }
  return low < ranges.length && ranges[low][0] <= offset;
}
