// One board operation to and from an encoded `Operation` message, as
// Sources/InkwellWire/Codec/OperationCodec.swift does it.
//
// Anything this code cannot read inside a well-formed change (an unknown kind, content out of range, text
// that is not UTF-8) becomes `{op: "unknown", kind, bytes}`: the change stays whole, the board ignores the
// operation, and encoding writes the bytes back unchanged. Content the board merely ignores (an image with
// a blob name of the wrong length, say) decodes as it is: whether it is malformed is the board's to say.

import { WireError } from './errors.js';
import { bytesEqual, fromHex, toHex } from './bytes.js';
import { decodeMessage, encodeMessage } from './message.js';
import { inkFromMessage, pointsMessage } from './points.js';
import * as schema from './schema.js';

/**
 * @typedef {{replica: string, seq: number}} ChangeId
 * @typedef {{op: 'addStroke', colour: number, width: number, points: [number, number][], pressures: number[] | null,
 *     brush?: 'pen' | 'highlighter'}
 *   | {op: 'appendPoints', stroke: string, points: [number, number][], pressures: number[] | null}
 *   | {op: 'erase', stroke: string, intervals: [number, number][]}
 *   | {op: 'set', stroke: string, attribute: 'colour' | 'width' | 'transform' | 'zOrder' | 'deleted' | 'fill',
 *     value: any}
 *   | {op: 'undo' | 'redo', change: ChangeId}
 *   | {op: 'clear'}
 *   | {op: 'settle', through: number, inactive: number[]}
 *   | {op: 'addText', colour: number, size: number, at: [number, number]}
 *   | {op: 'insertText', box: string, after: {run: string, offset: number} | null, text: string}
 *   | {op: 'deleteText', box: string, ranges: {run: string, from: number, to: number}[]}
 *   | {op: 'addImage', blob: string, bytes: number, type: string, at: [number, number], width: number,
 *       height: number}
 *   | {op: 'unknown', kind?: number, bytes: Uint8Array}} Operation
 */

const MAX_UINT64 = (1n << 64n) - 1n;
/**
 * The brushes at their numbers in `AddStroke.brush`. A pen's stroke decodes with no `brush` key, as before
 * brushes, so its JSON is Swift's.
 */
const BRUSHES = Object.freeze(['pen', 'highlighter']);
/** The most ranges a `deleteText` may hide (Swift's `BoardLimits.maximumRangesPerTextDelete`). */
const MAXIMUM_TEXT_RANGES = 10_000;

/**
 * Encodes one operation of a change made by `replica` (its 16 bytes).
 * @param {Operation} operation
 * @param {Uint8Array} replica
 * @returns {Uint8Array}
 */
export function encodeOperation(operation, replica) {
  if (operation === null || typeof operation !== 'object') throw WireError.invalidField('operation');
  /** @type {{case: string, value: Record<string, any>}} */
  let kind;
  switch (operation.op) {
    case 'addStroke':
      kind = {
        case: 'addStroke',
        value: {
          colour: colour(operation.colour),
          width: number(operation.width, 'add_stroke.width'),
          points: pointsMessage(operation.points, operation.pressures ?? null),
          brush: brush(operation.brush),
        },
      };
      break;
    case 'appendPoints':
      kind = {
        case: 'appendPoints',
        value: {
          stroke: strokeRef(operation.stroke, replica),
          points: pointsMessage(operation.points, operation.pressures ?? null),
        },
      };
      break;
    case 'erase': {
      if (!Array.isArray(operation.intervals)) throw WireError.invalidField('erase.intervals');
      const bounds = [];
      for (const interval of operation.intervals) {
        if (!Array.isArray(interval) || interval.length !== 2) throw WireError.invalidField('erase.intervals');
        bounds.push(number(interval[0], 'erase.intervals'), number(interval[1], 'erase.intervals'));
      }
      kind = { case: 'erase', value: { stroke: strokeRef(operation.stroke, replica), bounds } };
      break;
    }
    case 'set':
      kind = {
        case: 'setAttribute',
        value: { stroke: strokeRef(operation.stroke, replica), value: attribute(operation) },
      };
      break;
    case 'undo':
    case 'redo':
      // Undo is per user: only the seq travels, the replica is the change's own (as in Swift).
      kind = { case: operation.op, value: { seq: changeRefSeq(operation.change) } };
      break;
    case 'clear':
      kind = { case: 'clear', value: {} };
      break;
    case 'settle': {
      // Whether it is well formed is the board's to say (it depends on the change's seq): any seqs encode.
      if (!Array.isArray(operation.inactive)) throw WireError.invalidField('settle.inactive');
      const inactive = operation.inactive.map((seq) => safeUint64(seq, 'settle.inactive'));
      kind = { case: 'settle', value: { through: safeUint64(operation.through, 'settle.through'), inactive } };
      break;
    }
    case 'addText': {
      const at = operation.at;
      if (!Array.isArray(at) || at.length !== 2) throw WireError.invalidField('add_text.at');
      kind = {
        case: 'addText',
        value: {
          colour: colour(operation.colour),
          size: number(operation.size, 'add_text.size'),
          x: number(at[0], 'add_text.at'),
          y: number(at[1], 'add_text.at'),
        },
      };
      break;
    }
    case 'insertText': {
      const after = operation.after ?? null;
      if (after !== null && typeof after !== 'object') throw WireError.invalidField('insert_text.after');
      if (typeof operation.text !== 'string') throw WireError.invalidField('insert_text.text');
      kind = {
        case: 'insertText',
        value: {
          box: strokeRef(operation.box, replica),
          after: after === null ? null : strokeRef(after.run, replica),
          offset: after === null ? 0 : uint32(after.offset, 'insert_text.offset'),
          text: operation.text,
        },
      };
      break;
    }
    case 'deleteText': {
      if (!Array.isArray(operation.ranges)) throw WireError.invalidField('delete_text.ranges');
      const ranges = operation.ranges.map((range) => {
        if (range === null || typeof range !== 'object') throw WireError.invalidField('delete_text.ranges');
        return {
          run: strokeRef(range.run, replica),
          from: uint32(range.from, 'delete_text.from'),
          to: uint32(range.to, 'delete_text.to'),
        };
      });
      kind = { case: 'deleteText', value: { box: strokeRef(operation.box, replica), ranges } };
      break;
    }
    case 'addImage': {
      const at = operation.at;
      if (!Array.isArray(at) || at.length !== 2) throw WireError.invalidField('add_image.at');
      kind = {
        case: 'addImage',
        value: {
          blob: fromHex(operation.blob, 'add_image.blob'),
          size: safeUint64(operation.bytes, 'add_image.size'),
          type: operation.type,
          x: number(at[0], 'add_image.at'),
          y: number(at[1], 'add_image.at'),
          width: number(operation.width, 'add_image.width'),
          height: number(operation.height, 'add_image.height'),
        },
      };
      break;
    }
    case 'unknown':
      if (!(operation.bytes instanceof Uint8Array)) throw WireError.invalidField('unknown.bytes');
      return operation.bytes;
    default:
      throw WireError.invalidField('operation.op');
  }
  return encodeMessage(schema.Operation, { kind });
}

/**
 * Decodes one operation of a change made by `replica`; anything unreadable is kept as `unknown`.
 * @param {Uint8Array} bytes
 * @param {Uint8Array} replica
 * @returns {Operation}
 */
export function decodeOperation(bytes, replica) {
  try {
    const operation = decodeKnown(decodeMessage(schema.Operation, bytes), replica);
    if (operation !== null) return operation;
  } catch (error) {
    if (!(error instanceof WireError)) throw error;
  }
  return { op: 'unknown', kind: firstFieldNumber(bytes), bytes };
}

/** @param {Record<string, any>} wire @param {Uint8Array} replica @returns {Operation | null} */
function decodeKnown(wire, replica) {
  const kind = wire.kind;
  if (kind === null) return null;
  const value = kind.value;
  switch (kind.case) {
    case 'addStroke': {
      // A brush of a newer schema: the stroke is kept as unknown, bytes intact, as Swift keeps it.
      if (!(value.brush < BRUSHES.length)) throw WireError.invalidField('add_stroke.brush');
      const { points, pressures } = inkFromMessage(value.points ?? pointsDefaults());
      const add = { op: 'addStroke', colour: value.colour, width: value.width, points, pressures };
      return value.brush === 0 ? add : { ...add, brush: BRUSHES[value.brush] };
    }
    case 'appendPoints': {
      const { points, pressures } = inkFromMessage(value.points ?? pointsDefaults());
      return { op: 'appendPoints', stroke: strokeID(value.stroke, replica), points, pressures };
    }
    case 'erase': {
      const bounds = value.bounds;
      if (bounds.length % 2 !== 0) throw WireError.invalidField('erase.bounds');
      const intervals = [];
      for (let index = 0; index < bounds.length; index += 2) intervals.push([bounds[index], bounds[index + 1]]);
      return { op: 'erase', stroke: strokeID(value.stroke, replica), intervals };
    }
    case 'setAttribute': {
      const stroke = strokeID(value.stroke, replica);
      const member = value.value;
      if (member === null) return null;
      switch (member.case) {
        case 'transform': {
          const t = member.value;
          return { op: 'set', stroke, attribute: 'transform', value: [t.a, t.b, t.c, t.d, t.tx, t.ty] };
        }
        default:
          return { op: 'set', stroke, attribute: member.case, value: member.value };
      }
    }
    case 'undo':
    case 'redo': {
      const seq = value.seq;
      if (seq === 0) throw WireError.invalidField(`${kind.case}.seq`);
      // A seq beyond 2^53 − 1 cannot be a Number: the operation is kept as unknown, bytes intact.
      if (typeof seq !== 'number') throw WireError.unrepresentable(`${kind.case}.seq`);
      return { op: kind.case, change: { replica: toHex(replica), seq } };
    }
    case 'clear':
      return { op: 'clear' };
    case 'settle': {
      // Seqs beyond 2^53 − 1 cannot be Numbers: the operation is kept as unknown, bytes intact (and no
      // settle naming one is well formed, as every change's seq is a Number).
      const { through, inactive } = value;
      if (typeof through !== 'number') throw WireError.unrepresentable('settle.through');
      if (!inactive.every((/** @type {unknown} */ seq) => typeof seq === 'number')) {
        throw WireError.unrepresentable('settle.inactive');
      }
      return { op: 'settle', through, inactive };
    }
    case 'addText':
      return { op: 'addText', colour: value.colour, size: value.size, at: [value.x, value.y] };
    case 'insertText': {
      // Text that is not UTF-8 never gets here: the message does not decode, and the operation is unknown.
      const box = strokeID(value.box, replica);
      if (value.after === null && value.offset !== 0) throw WireError.invalidField('insert_text.offset');
      const after = value.after === null ? null : { run: strokeID(value.after, replica), offset: value.offset };
      return { op: 'insertText', box, after, text: value.text };
    }
    case 'deleteText': {
      // As Swift reads it: too many ranges, or an empty one, and the operation is unknown.
      const box = strokeID(value.box, replica);
      if (value.ranges.length > MAXIMUM_TEXT_RANGES) throw WireError.invalidField('delete_text.ranges');
      const ranges = value.ranges.map((/** @type {Record<string, any>} */ range) => {
        if (!(range.from < range.to)) throw WireError.invalidField('delete_text.ranges');
        return { run: strokeID(range.run, replica), from: range.from, to: range.to };
      });
      return { op: 'deleteText', box, ranges };
    }
    case 'addImage': {
      // A type that is not UTF-8 never gets here, as text does not. A size beyond 2^53 − 1 cannot be a
      // Number (and the board ignores it): the operation is kept as unknown, bytes intact.
      const { blob, size, type, x, y, width, height } = value;
      if (typeof size !== 'number') throw WireError.unrepresentable('add_image.size');
      return { op: 'addImage', blob: toHex(blob), bytes: size, type, at: [x, y], width, height };
    }
  }
  return null;
}

function pointsDefaults() {
  return { scale: 0, residuals: [], raw: [], pressures: new Uint8Array(0), rawPressures: [] };
}

/**
 * `<replica hex>-<seq>-<index>` from a `StrokeRef`: an empty replica means the change's own.
 * @param {Record<string, any> | null} reference
 * @param {Uint8Array} replica
 */
function strokeID(reference, replica) {
  const ref = reference ?? { replica: new Uint8Array(0), seq: 0, index: 0 };
  let creator = replica;
  if (ref.replica.length !== 0) {
    if (ref.replica.length !== 16) throw WireError.invalidField('stroke.replica');
    creator = ref.replica;
  }
  if (ref.seq === 0) throw WireError.invalidField('stroke.seq');
  return `${toHex(creator)}-${ref.seq}-${ref.index}`;
}

/**
 * A `StrokeRef` for a stroke id; the replica is left out when it is the change's own.
 * @param {unknown} stroke
 * @param {Uint8Array} replica
 */
function strokeRef(stroke, replica) {
  const match = typeof stroke === 'string' ? /^([0-9a-fA-F]{32})-(\d+)-(\d+)$/.exec(stroke) : null;
  if (match === null) throw WireError.invalidField('stroke');
  const creator = fromHex(match[1], 'stroke');
  const seq = BigInt(match[2]);
  const index = Number(match[3]);
  if (seq < 1n || seq > MAX_UINT64 || !(index <= 0xffffffff)) throw WireError.invalidField('stroke');
  return {
    replica: bytesEqual(creator, replica) ? new Uint8Array(0) : creator,
    seq: seq <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seq) : seq,
    index,
  };
}

/** @param {Operation & {op: 'set'}} operation */
function attribute(operation) {
  const { attribute: name, value } = operation;
  switch (name) {
    case 'colour':
    case 'fill':
      return { case: name, value: colour(value) };
    case 'width':
    case 'zOrder':
      return { case: name, value: number(value, `set.${name}`) };
    case 'deleted':
      if (typeof value !== 'boolean') throw WireError.invalidField('set.deleted');
      return { case: 'deleted', value };
    case 'transform': {
      if (!Array.isArray(value) || value.length !== 6) throw WireError.invalidField('set.transform');
      const [a, b, c, d, tx, ty] = value.map((entry) => number(entry, 'set.transform'));
      return { case: 'transform', value: { a, b, c, d, tx, ty } };
    }
  }
  throw WireError.invalidField('set.attribute');
}

/** A brush's number: a pen when none is named. @param {unknown} name */
function brush(name) {
  const number = name === undefined ? 0 : BRUSHES.indexOf(/** @type {any} */ (name));
  if (number === -1) throw WireError.invalidField('add_stroke.brush');
  return number;
}

/** @param {unknown} change */
function changeRefSeq(change) {
  const reference = /** @type {any} */ (change);
  if (reference === null || typeof reference !== 'object' || !/^[0-9a-fA-F]{32}$/.test(reference.replica)) {
    throw WireError.invalidField('change');
  }
  if (!Number.isSafeInteger(reference.seq) || reference.seq < 1) throw WireError.invalidField('change.seq');
  return reference.seq;
}

/** A uint64 that a Number holds exactly: a seq, a blob's size. @param {unknown} value @param {string} name */
function safeUint64(value, name) {
  if (!Number.isSafeInteger(value) || /** @type {number} */ (value) < 0) throw WireError.invalidField(name);
  return /** @type {number} */ (value);
}

/** @param {unknown} value @param {string} name */
function uint32(value, name) {
  if (!Number.isInteger(value) || /** @type {number} */ (value) < 0 || /** @type {number} */ (value) > 0xffffffff) {
    throw WireError.invalidField(name);
  }
  return /** @type {number} */ (value);
}

/** @param {unknown} value */
function colour(value) {
  if (!Number.isInteger(value) || /** @type {number} */ (value) < 0 || /** @type {number} */ (value) > 0xffffffff) {
    throw WireError.invalidField('colour');
  }
  return /** @type {number} */ (value);
}

/** @param {unknown} value @param {string} name */
function number(value, name) {
  if (typeof value !== 'number') throw WireError.invalidField(name);
  return value;
}

/**
 * The field number of the first field in an encoded message: an unknown operation's kind (0 when the
 * first ten bytes hold no complete varint), as Swift's `firstFieldNumber`.
 * @param {Uint8Array} bytes
 */
export function firstFieldNumber(bytes) {
  let lo = 0;
  let hi = 0;
  for (let index = 0; index < Math.min(bytes.length, 10); index++) {
    const bits = bytes[index] & 0x7f;
    if (index < 4) lo |= bits << (7 * index);
    else if (index === 4) {
      lo |= bits << 28;
      hi = bits >>> 4;
    } else hi |= bits << (7 * index - 32);
    if (bytes[index] < 0x80) return ((lo >>> 3) | (hi << 29)) >>> 0;
  }
  return 0;
}
