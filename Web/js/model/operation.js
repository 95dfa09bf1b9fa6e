// Reads the JSON form of board operations (as in Conformance/board.json) into checked values.
//
// Every replica must ignore exactly the same malformed operations, or replicas would disagree, so
// these are the checks of Sources/InkwellBoard (BoardLimits, AttributeValue.isValid, the erase filter).
// An operation this code does not know, or one that is malformed, reads as null: ignored, never an error.

import { readBrush } from './board-brush.js';
import { readImage } from './board-image.js';
import { parseChangeId, parseStrokeId, strokeId } from './ids.js';
import { MAXIMUM_RUN_LENGTH } from './text-sequence.js';

/** Sizes beyond which an operation is malformed and ignored by every replica alike. */
export const LIMITS = Object.freeze({
  maximumPointsPerOperation: 100_000,
  maximumCoordinate: 1e9,
  maximumIntervalsPerErase: 10_000,
  maximumWidth: 1_000,
  maximumSettledInactive: 100_000,
});

/** The attribute names of `set` operations, in Swift's `Attribute` order (its raw values 1…6). */
export const ATTRIBUTES = Object.freeze(['colour', 'width', 'transform', 'zOrder', 'deleted', 'fill']);

/**
 * @typedef {import('./ids.js').StrokeRef} StrokeRef
 * @typedef {import('./ids.js').ChangeId} ChangeId
 * @typedef {import('./text-sequence.js').OperationId} OperationId
 * @typedef {import('./text-sequence.js').Anchor} Anchor
 * @typedef {[number, number]} Pair
 * @typedef {(
 *   {kind: 'addStroke', colour: number, width: number, brush: import('./board-brush.js').Brush, points: Pair[],
 *     pressures: number[] | null} |
 *   {kind: 'appendPoints', stroke: StrokeRef, id: string, points: Pair[], pressures: number[] | null} |
 *   {kind: 'erase', stroke: StrokeRef, id: string, intervals: Pair[]} |
 *   {kind: 'addText', colour: number, size: number, at: Pair} |
 *   {kind: 'insertText', box: StrokeRef, id: string, after: Anchor | null, text: string} |
 *   {kind: 'deleteText', box: StrokeRef, id: string, ranges: {run: OperationId, from: number, to: number}[]} |
 *   {kind: 'addImage', image: import('./board-image.js').BoardImage, at: Pair} |
 *   {kind: 'set', stroke: StrokeRef, id: string, attribute: string, value: unknown} |
 *   {kind: 'undo' | 'redo', target: ChangeId} |
 *   {kind: 'clear'} |
 *   {kind: 'settle', through: number, inactive: Set<number>}
 * )} Operation
 */

/**
 * Reads one operation; null when it is unknown or malformed, so that it has no effect.
 * Points and pressures are copied: the board never shares arrays with the change.
 * @param {any} op the JSON form, e.g. `{op: "erase", stroke, intervals}`
 * @returns {Operation | null}
 * - Complexity: O(size of the operation).
 */
export function readOperation(op) {
  if (op === null || typeof op !== 'object') return null;
  switch (op.op) {
    case 'addStroke': {
      // A brush this version does not know is a newer schema's: the stroke is not read at all.
      const ink = readInk(op.points, op.pressures);
      const brush = readBrush(op.brush);
      if (ink === null || brush === null || !isColour(op.colour) || !isValidWidth(op.width)) return null;
      return { kind: 'addStroke', colour: op.colour, width: op.width, brush, ...ink };
    }
    case 'appendPoints': {
      const stroke = parseStrokeId(op.stroke);
      const ink = readInk(op.points, op.pressures);
      if (stroke === null || ink === null) return null;
      return { kind: 'appendPoints', stroke, id: strokeId(stroke, stroke.index), ...ink };
    }
    case 'erase': {
      const stroke = parseStrokeId(op.stroke);
      if (stroke === null || !Array.isArray(op.intervals)) return null;
      if (op.intervals.length > LIMITS.maximumIntervalsPerErase) return null;
      const intervals = op.intervals.filter(isValidInterval).map(([lower, upper]) => [lower, upper]);
      if (intervals.length === 0) return null;
      return { kind: 'erase', stroke, id: strokeId(stroke, stroke.index), intervals };
    }
    case 'addText': {
      const at = op.at;
      if (!isColour(op.colour) || !isValidWidth(op.size) || !Array.isArray(at) || at.length !== 2) return null;
      if (!isCoordinate(at[0]) || !isCoordinate(at[1])) return null;
      return { kind: 'addText', colour: op.colour, size: op.size, at: [at[0], at[1]] };
    }
    case 'insertText': {
      const box = parseStrokeId(op.box);
      const after = op.after === null || op.after === undefined ? null : readAnchor(op.after);
      if (box === null || after === undefined || !isText(op.text)) return null;
      return { kind: 'insertText', box, id: strokeId(box, box.index), after, text: op.text };
    }
    case 'deleteText': {
      // Unlike an erase, one bad range spoils the whole operation.
      const box = parseStrokeId(op.box);
      const { ranges } = op;
      if (box === null || !Array.isArray(ranges) || ranges.length === 0) return null;
      if (ranges.length > LIMITS.maximumIntervalsPerErase) return null;
      const read = ranges.map(readTextRange);
      if (read.includes(null)) return null;
      return { kind: 'deleteText', box, id: strokeId(box, box.index), ranges: read };
    }
    case 'addImage': {
      // Its blob, size, type and box as board-image.js reads them; its corner as a text box's.
      const image = readImage(op);
      const at = op.at;
      if (image === null || !Array.isArray(at) || at.length !== 2) return null;
      if (!isCoordinate(at[0]) || !isCoordinate(at[1])) return null;
      return { kind: 'addImage', image, at: [at[0], at[1]] };
    }
    case 'set': {
      const stroke = parseStrokeId(op.stroke);
      const value = readAttributeValue(op.attribute, op.value);
      // Deleting is a tombstone: only undoing the delete brings a stroke back.
      if (stroke === null || value === undefined || (op.attribute === 'deleted' && value === false)) return null;
      return { kind: 'set', stroke, id: strokeId(stroke, stroke.index), attribute: op.attribute, value };
    }
    case 'undo':
    case 'redo': {
      const target = parseChangeId(op.change);
      return target === null ? null : { kind: op.op, target };
    }
    case 'clear':
      return { kind: 'clear' };
    case 'settle': {
      // The rest of being well formed, `through` below the seq of the change carrying it, is the board's check.
      const { through, inactive } = op;
      if (!isSeq(through) || !Array.isArray(inactive) || inactive.length > LIMITS.maximumSettledInactive) return null;
      if (!inactive.every((seq) => isSeq(seq) && seq <= through)) return null;
      return { kind: 'settle', through, inactive: new Set(inactive) };
    }
    default:
      return null;
  }
}

/**
 * Points and pressures as `BoardLimits.accepts` wants them, copied; null if not acceptable.
 * Pressures are rounded to 32-bit floats first, because Swift holds them as `Float`.
 */
function readInk(points, pressures) {
  if (!Array.isArray(points) || points.length === 0 || points.length > LIMITS.maximumPointsPerOperation) return null;
  const copied = new Array(points.length);
  for (let i = 0; i < points.length; i++) {
    const point = points[i];
    if (!Array.isArray(point) || point.length !== 2 || !isCoordinate(point[0]) || !isCoordinate(point[1])) return null;
    copied[i] = [point[0], point[1]];
  }
  if (pressures === null || pressures === undefined) return { points: copied, pressures: null };
  if (!Array.isArray(pressures) || pressures.length !== points.length) return null;
  const floats = new Array(pressures.length);
  for (let i = 0; i < pressures.length; i++) {
    const pressure = typeof pressures[i] === 'number' ? Math.fround(pressures[i]) : NaN;
    if (!(pressure >= 0 && pressure <= 1)) return null;
    floats[i] = pressure;
  }
  return { points: copied, pressures: floats };
}

/**
 * A character named in the JSON form `{run: "<replica>-<seq>-<index>", offset}`, as a text sequence's
 * anchor; undefined if malformed.
 * @returns {Anchor | undefined}
 */
function readAnchor(value) {
  if (value === null || typeof value !== 'object') return undefined;
  const run = readRun(value.run);
  return run === null || !isOffset(value.offset) ? undefined : { run, offset: value.offset };
}

/** `{run, from, to}` hiding offsets `from..<to` of a run, or null if malformed. */
function readTextRange(value) {
  if (value === null || typeof value !== 'object') return null;
  const run = readRun(value.run);
  const { from, to } = value;
  if (run === null || !isOffset(from) || !isOffset(to) || !(from < to)) return null;
  return { run, from, to };
}

/** A run's operation id from its `<replica>-<seq>-<index>`, or null. @returns {OperationId | null} */
function readRun(text) {
  const ref = parseStrokeId(text);
  return ref === null ? null : { change: { replica: ref.replica, seq: ref.seq }, index: ref.index };
}

/** An offset in a run, as Swift's `UInt32`. */
function isOffset(value) {
  return Number.isInteger(value) && value >= 0 && value <= 0xffff_ffff;
}

/**
 * 1 to 100,000 Unicode scalars, with no lone surrogate (no Swift string holds one, and the wire refuses it).
 */
function isText(value) {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2 * MAXIMUM_RUN_LENGTH) return false;
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) return false;
  return Array.from(value).length <= MAXIMUM_RUN_LENGTH;
}

function isSeq(value) {
  return Number.isSafeInteger(value) && value >= 1;
}

function isCoordinate(value) {
  return Number.isFinite(value) && Math.abs(value) <= LIMITS.maximumCoordinate;
}

function isColour(value) {
  return Number.isInteger(value) && value >= 0 && value <= 0xffff_ffff;
}

function isValidWidth(value) {
  return Number.isFinite(value) && value > 0 && value <= LIMITS.maximumWidth;
}

function isValidInterval(interval) {
  return (
    Array.isArray(interval) &&
    interval.length === 2 &&
    Number.isFinite(interval[0]) &&
    Number.isFinite(interval[1]) &&
    interval[0] < interval[1]
  );
}

/**
 * An attribute's value if it has the attribute's type and is one a well-behaved client could send,
 * else undefined. A transform is `[a, b, c, d, tx, ty]`; copied so the board owns it. A fill is a colour.
 */
function readAttributeValue(attribute, value) {
  switch (attribute) {
    case 'colour':
      return isColour(value) ? value : undefined;
    case 'width':
      return isValidWidth(value) ? value : undefined;
    case 'transform':
      return Array.isArray(value) && value.length === 6 && value.every(Number.isFinite) ? [...value] : undefined;
    case 'zOrder':
      return Number.isFinite(value) ? value : undefined;
    case 'deleted':
      return typeof value === 'boolean' ? value : undefined;
    case 'fill':
      // Any colour: one of alpha 0 takes the fill away.
      return isColour(value) ? value : undefined;
    default:
      return undefined;
  }
}
