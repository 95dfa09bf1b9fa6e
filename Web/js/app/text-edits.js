/**
 * What typing in a text box's editor commits, and where its caret goes when others type. Pure: the editor
 * (text-editor.js) keeps, for every character its field shows, the anchor that names it on the board
 * (`{run, offset}`, board-text.js), and turns each change of the field's value into operations against
 * those anchors: a delete of the characters that went and an insert of those that came, after the
 * character before them. Named by characters, never by positions, an edit lands where it was made however
 * others type meanwhile (or while an input method composes).
 */

import { scalarCaret } from '../model/board-text.js';
import { LIMITS } from '../model/operation.js';
import { MAXIMUM_RUN_LENGTH } from '../model/text-sequence.js';

/**
 * @typedef {{run: string, offset: number}} Anchor a character on the board: the insert that typed it and
 *   its place in that insert's text
 * @typedef {{start: number, end: number, text: string}} TextDiff UTF-16 positions in the old value: its
 *   `start..<end` became `text`
 */

/**
 * How `before` became `after`: the one stretch that differs, found from both ends. Where the same
 * characters repeat, the stretch is put to end at `caret` (the field's caret after the edit), so a letter
 * typed into "aa" after the first is an insert after the first; without a caret, as early as it can. A
 * surrogate pair is never split.
 * @param {string} before
 * @param {string} after
 * @param {number} [caret] UTF-16 position in `after`
 * @returns {TextDiff}
 */
export function textDiff(before, after, caret) {
  const most = Math.min(before.length, after.length);
  let suffix = 0;
  while (suffix < most && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  if (caret !== undefined) suffix = Math.min(suffix, Math.max(0, after.length - caret));
  let prefix = 0;
  while (prefix < most - suffix && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  if (prefix > 0 && isHigh(after.charCodeAt(prefix - 1))) prefix--;
  if (suffix > 0 && isLow(after.charCodeAt(after.length - suffix))) suffix--;
  return { start: prefix, end: before.length - suffix, text: after.slice(prefix, after.length - suffix) };
}

/**
 * The operations that make the box show `after` where its field showed `before`, and the anchors of the
 * characters the field shows then.
 * @param {{
 *   box: string, shown: Anchor[], before: string, after: string, caret?: number,
 *   runId: (index: number) => string, firstIndex?: number,
 * }} edit `shown` names each Unicode scalar of `before`; `runId(i)` is the id the change gives its
 *   operation `i` (`<replica>-<seq>-<i>`), and these operations start at `firstIndex` of it (1 after an
 *   `addText`)
 * @returns {{operations: object[], shown: Anchor[]}}
 */
export function editOperations({ box, shown, before, after, caret, runId, firstIndex = 0 }) {
  const diff = textDiff(before, after, caret);
  const from = scalarCaret(before, diff.start);
  const to = scalarCaret(before, diff.end);
  const operations = to > from ? deleteOperations(box, shown.slice(from, to)) : [];
  /** @type {Anchor[]} */
  const inserted = [];
  let anchor = from === 0 ? null : { run: shown[from - 1].run, offset: shown[from - 1].offset };
  const scalars = [...diff.text];
  // An insert holds at most 100,000 characters: a longer paste goes in several, each after the one before.
  for (let start = 0; start < scalars.length; start += MAXIMUM_RUN_LENGTH) {
    const text = scalars.slice(start, start + MAXIMUM_RUN_LENGTH);
    const run = runId(firstIndex + operations.length);
    operations.push({ op: 'insertText', box, after: anchor, text: text.join('') });
    for (let offset = 0; offset < text.length; offset++) inserted.push({ run, offset });
    anchor = { run, offset: text.length - 1 };
  }
  return { operations, shown: [...shown.slice(0, from), ...inserted, ...shown.slice(to)] };
}

/**
 * The deletes of `characters`: a range per stretch of one run, at most 10,000 ranges an operation.
 * @param {string} box
 * @param {Anchor[]} characters
 * @returns {{op: 'deleteText', box: string, ranges: {run: string, from: number, to: number}[]}[]}
 */
export function deleteOperations(box, characters) {
  const ranges = [];
  for (const { run, offset } of characters) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last.run === run && last.to === offset) last.to++;
    else ranges.push({ run, from: offset, to: offset + 1 });
  }
  const operations = [];
  for (let start = 0; start < ranges.length; start += LIMITS.maximumIntervalsPerErase) {
    operations.push({ op: 'deleteText', box, ranges: ranges.slice(start, start + LIMITS.maximumIntervalsPerErase) });
  }
  return operations;
}

/**
 * Where a caret goes when the box's text changes under it: after the same character as before (the one
 * before it), or, if that one went, after the nearest one before it still there; at the start if none is.
 * @param {Anchor[]} before the characters the caret counted
 * @param {number} caret in Unicode scalars, 0…before.length
 * @param {Anchor[]} after the characters shown now
 * @returns {number} the caret in `after`
 */
export function mapCaret(before, caret, after) {
  if (caret <= 0) return 0;
  const places = new Map(after.map((anchor, index) => [key(anchor), index]));
  for (let k = Math.min(caret, before.length); k > 0; k--) {
    const index = places.get(key(before[k - 1]));
    if (index !== undefined) return index + 1;
  }
  return 0;
}

function key({ run, offset }) {
  return `${run}/${offset}`;
}

function isHigh(code) {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code) {
  return code >= 0xdc00 && code <= 0xdfff;
}
