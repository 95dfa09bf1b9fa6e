// Operations too many or too large for one change, cut into consecutive changes of one author.
//
// Every replica refuses a change of more than `maximumOperationsPerChange` operations or
// `maximumChangeBytes` encoded bytes, so a restore of a big board, or a move of thousands of selected
// strokes, is made as several changes. Operations name what their own change adds by the change's id and
// their index in it (`<replica>-<seq>-<index>`: a copy's stroke, a text box, a text run). Cut into parts, an
// operation takes the id of its place in its part and every later reference to it is renamed to match, so
// the parts together do exactly what the one change would have done.

import { parseStrokeId, strokeId } from './ids.js';
import { WireLimits } from '../wire/limits.js';

/**
 * The operations of one change of `first`'s id, as the operations of changes `first.seq`, `first.seq + 1`, …
 * that each `fits`: the operations unchanged when they fit in one.
 *
 * Cuts fall every `maximumOperationsPerChange` operations, and a part that still does not fit (too many
 * bytes) is halved until it does.
 * @param {object[]} operations in the JSON form of Conformance/board.json
 * @param {{replica: string, seq: number}} first the id the one change would have had
 * @param {(operations: object[], id: {replica: string, seq: number}) => boolean} fits whether a change of
 *   these operations with this id may be made
 * @param {number} [most] operations in one part at most
 * @returns {object[][]}
 * @throws {RangeError} when one operation alone does not fit, or one names an operation after it
 * - Complexity: O(n log n) for n operations at worst; O(n) encodings when they fit.
 */
export function splitOperations(operations, first, fits, most = WireLimits.maximumOperationsPerChange) {
  if (operations.length <= most && fits(operations, first)) return [operations];
  /** Where each part starts, and after the last one, where the operations end. */
  const starts = [];
  for (let start = 0; start < operations.length; start += most) starts.push(start);
  starts.push(operations.length);
  for (;;) {
    const parts = renamed(operations, first, starts);
    const tooLarge = parts.findIndex((part, i) => !fits(part, { replica: first.replica, seq: first.seq + i }));
    if (tooLarge < 0) return parts;
    const [start, end] = [starts[tooLarge], starts[tooLarge + 1]];
    if (end - start === 1) throw new RangeError(`operation ${start} is too large for any change`);
    starts.splice(tooLarge + 1, 0, start + Math.floor((end - start) / 2));
  }
}

/**
 * The operations cut at `starts`, each one's references to an operation of the one change renamed to that
 * operation's id in its part.
 * @param {object[]} operations
 * @param {{replica: string, seq: number}} first
 * @param {number[]} starts
 * @returns {object[][]}
 */
function renamed(operations, first, starts) {
  /** The id an operation of the one change takes in its part: `index` must lie before `before`. */
  const rename = (id, before) => {
    const ref = parseStrokeId(id);
    if (ref === null || ref.replica !== first.replica || ref.seq !== first.seq) return id;
    if (ref.index >= before) throw new RangeError(`operation ${before} names operation ${ref.index}, which comes after it`);
    let part = 0;
    while (starts[part + 1] <= ref.index) part += 1;
    return strokeId({ replica: first.replica, seq: first.seq + part }, ref.index - starts[part]);
  };
  const parts = [];
  for (let part = 0; part + 1 < starts.length; part++) {
    const slice = [];
    for (let index = starts[part]; index < starts[part + 1]; index++) {
      slice.push(renamedOperation(operations[index], (id) => rename(id, index)));
    }
    parts.push(slice);
  }
  return parts;
}

/**
 * An operation with every id it names passed through `rename`: the stroke or box it edits, the character
 * it types after, the runs it deletes from. Other fields are kept as they are.
 * @param {object} operation
 * @param {(id: string) => string} rename
 */
function renamedOperation(operation, rename) {
  const copy = { ...operation };
  if (typeof copy.stroke === 'string') copy.stroke = rename(copy.stroke);
  if (typeof copy.box === 'string') copy.box = rename(copy.box);
  if (copy.after !== null && typeof copy.after === 'object' && typeof copy.after.run === 'string') {
    copy.after = { ...copy.after, run: rename(copy.after.run) };
  }
  if (Array.isArray(copy.ranges)) {
    copy.ranges = copy.ranges.map((range) => (typeof range?.run === 'string' ? { ...range, run: rename(range.run) } : range));
  }
  return copy;
}
