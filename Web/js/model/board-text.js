// Editing a text box from the page: its characters as they show, and the operations that type at a caret
// or delete a span, in the JSON form of Conformance/board.json (docs/ARCHITECTURE.md, "Text boxes on the
// board"). Text is named by its characters, never by positions, so that an edit lands where the user made
// it however others type at the same time.
//
// A caret counts Unicode scalars (code points) of the text as it shows, 0 before the first character:
// the board counts as Swift does. `scalarCaret` and `utf16Caret` convert from and to a text field's
// UTF-16 positions.

import { shownCharacters } from './box-text.js';
import { LIMITS } from './operation.js';
import { isText } from './stroke-record.js';
import { MAXIMUM_RUN_LENGTH, operationKey } from './text-sequence.js';

/**
 * @typedef {import('./board-state.js').BoardState} BoardState
 * @typedef {{run: string, offset: number}} TextAnchor a character: its run, `<replica>-<seq>-<index>` (the
 *   insert that typed it), and its offset in the run; the form of `insertText`'s `after`
 * @typedef {{run: string, offset: number, char: string}} VisibleCharacter
 */

/**
 * The box's record, if `id` names a box that has arrived (shown or not).
 * @param {BoardState} state
 * @param {string} id in the board's key form
 */
function boxRecord(state, id) {
  const record = state.records.get(id);
  return record !== undefined && isText(record) ? record : null;
}

/**
 * The text a box shows, or null if `id` is not a box that has arrived.
 * @param {BoardState} state
 * @param {string} id in the board's key form
 * @returns {string | null}
 */
export function boxText(state, id) {
  const record = boxRecord(state, id);
  return record === null ? null : shownCharacters(record, state.isActive).map(({ scalar }) => scalar).join('');
}

/**
 * The characters a box shows, in order, each with the anchor that names it; empty if `id` is not a box.
 * @param {BoardState} state
 * @param {string} id in the board's key form
 * @returns {VisibleCharacter[]}
 * - Complexity: O(n) for n characters shown, once the text is worked out (see box-text.js).
 */
export function visibleCharacters(state, id) {
  const record = boxRecord(state, id);
  if (record === null) return [];
  return shownCharacters(record, state.isActive).map(({ anchor, scalar }) => ({
    run: operationKey(anchor.run),
    offset: anchor.offset,
    char: scalar,
  }));
}

/**
 * Where text typed at `caret` goes: the anchor of the character shown just before it, or null at the
 * start (an insert after null goes before every character, shown or not).
 * @param {BoardState} state
 * @param {string} id in the board's key form
 * @param {number} caret 0…the count of characters shown
 * @returns {TextAnchor | null}
 * @throws {RangeError} if `id` is not a box or the caret is outside its text
 */
export function textAnchorAt(state, id, caret) {
  const shown = shownOf(state, id);
  checkCaret(caret, shown.length);
  if (caret === 0) return null;
  const { anchor } = shown[caret - 1];
  return { run: operationKey(anchor.run), offset: anchor.offset };
}

/**
 * The operation that types `text` at `caret`.
 * @param {BoardState} state
 * @param {string} id in the board's key form
 * @param {number} caret
 * @param {string} text 1 to 100,000 Unicode scalars (split longer text over several inserts, each after
 *   the last character of the one before)
 * @returns {{op: 'insertText', box: string, after: TextAnchor | null, text: string}}
 * @throws {RangeError} as `textAnchorAt`, or for empty or too long text
 */
export function insertTextOperation(state, id, caret, text) {
  const length = typeof text === 'string' ? Array.from(text).length : 0;
  if (length === 0 || length > MAXIMUM_RUN_LENGTH) throw new RangeError('an insert types 1 to 100,000 characters');
  return { op: 'insertText', box: id, after: textAnchorAt(state, id, caret), text };
}

/**
 * The operations that delete the characters shown between carets `from` and `to`: one range per stretch
 * of one run, at most 10,000 ranges an operation (put them all in one change). None when `from` is `to`.
 * @param {BoardState} state
 * @param {string} id in the board's key form
 * @param {number} from
 * @param {number} to
 * @returns {{op: 'deleteText', box: string, ranges: {run: string, from: number, to: number}[]}[]}
 * @throws {RangeError} if `id` is not a box, or either caret is outside its text
 */
export function deleteTextOperations(state, id, from, to) {
  const shown = shownOf(state, id);
  checkCaret(from, shown.length);
  checkCaret(to, shown.length);
  const ranges = [];
  let last = null;
  for (let i = Math.min(from, to); i < Math.max(from, to); i++) {
    const { anchor } = shown[i];
    if (last !== null && last.anchor.run === anchor.run && last.range.to === anchor.offset) {
      last.range.to += 1;
      continue;
    }
    const range = { run: operationKey(anchor.run), from: anchor.offset, to: anchor.offset + 1 };
    ranges.push(range);
    last = { anchor, range };
  }
  const operations = [];
  const most = LIMITS.maximumIntervalsPerErase;
  for (let start = 0; start < ranges.length; start += most) {
    operations.push({ op: 'deleteText', box: id, ranges: ranges.slice(start, start + most) });
  }
  return operations;
}

/**
 * The caret in Unicode scalars for a UTF-16 position in `text` (one inside a surrogate pair counts as
 * after it).
 * @param {string} text
 * @param {number} index
 */
export function scalarCaret(text, index) {
  let caret = 0;
  for (let i = 0; i < index && i < text.length; i += pairAt(text, i) ? 2 : 1) caret++;
  return caret;
}

/**
 * The UTF-16 position in `text` of a caret in Unicode scalars.
 * @param {string} text
 * @param {number} caret
 */
export function utf16Caret(text, caret) {
  let index = 0;
  for (let seen = 0; seen < caret && index < text.length; seen++) index += pairAt(text, index) ? 2 : 1;
  return index;
}

/** Whether a surrogate pair, one scalar, starts at UTF-16 position `i`. @param {string} text @param {number} i */
function pairAt(text, i) {
  const high = text.charCodeAt(i);
  const low = text.charCodeAt(i + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** The characters a box shows; throws if `id` is not a box. */
function shownOf(state, id) {
  const record = boxRecord(state, id);
  if (record === null) throw new RangeError(`${id} is not a text box here`);
  return shownCharacters(record, state.isActive);
}

function checkCaret(caret, length) {
  if (!Number.isInteger(caret) || caret < 0 || caret > length) {
    throw new RangeError(`caret ${caret} is outside 0…${length}`);
  }
}
