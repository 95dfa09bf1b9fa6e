// Ink points on the wire: quantised and delta-encoded so that a point costs a few bytes, exactly as
// Sources/InkwellWire/Codec/PointCodec.swift does it.
//
// Coordinates go on the coarsest power-of-two grid (1, 2, 4 … 1024 steps a pixel) that holds them all
// exactly, and each point is sent as its difference from the straight-line prediction 2·p[i−1] − p[i−2]
// as zig-zag varints. Off-grid points fall back to raw doubles, so encoding never changes a value.
// Pressures go as one byte each when every one is exactly k/255 (as a 32-bit float), else as floats.

import { WireError } from './errors.js';
import { WireLimits } from './limits.js';
import { decodeMessage, encodeMessage } from './message.js';
import * as schema from './schema.js';

/** The grids tried, coarsest first. */
export const SCALES = Object.freeze([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);

/** Coordinates beyond this many grid steps are not quantised (Swift keeps |k| well inside Int64). */
const MAXIMUM_STEPS = 2 ** 52;
/** Below this many steps, residuals stay exact as Numbers (|residual| < 4 · 2^50). */
const NUMBER_STEPS = 2 ** 50;
/** The board's limit on coordinates. */
export const MAXIMUM_COORDINATE = 1e9;

const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

/**
 * @typedef {[number, number]} Point
 * @typedef {{points: Point[], pressures: number[] | null}} Ink
 */

/**
 * The coarsest grid that holds every coordinate exactly, or `null` when none does.
 * @param {Point[]} points
 */
export function gridScale(points) {
  for (const scale of SCALES) {
    let fits = true;
    for (const [x, y] of points) {
      if (!onGrid(x * scale) || !onGrid(y * scale)) {
        fits = false;
        break;
      }
    }
    if (fits) return scale;
  }
  return null;
}

/** @param {number} steps */
const onGrid = (steps) => Number.isInteger(steps) && Math.abs(steps) < MAXIMUM_STEPS;

/**
 * The residuals of `points` on the grid `scale` (which must hold them): x then y per point.
 * @param {Point[]} points
 * @param {number} scale
 * @returns {(number | bigint)[]}
 */
export function residuals(points, scale) {
  let small = true;
  for (const [x, y] of points) {
    if (!(Math.abs(x * scale) < NUMBER_STEPS && Math.abs(y * scale) < NUMBER_STEPS)) {
      small = false;
      break;
    }
  }
  if (!small) return bigResiduals(points, scale);
  const result = new Array(points.length * 2);
  let px = 0;
  let py = 0;
  let bx = 0;
  let by = 0;
  for (let index = 0; index < points.length; index++) {
    const x = points[index][0] * scale + 0; // + 0 turns −0 into 0, as Int64(−0.0) does
    const y = points[index][1] * scale + 0;
    if (index === 0) {
      result[0] = x;
      result[1] = y;
    } else if (index === 1) {
      result[2] = x - px;
      result[3] = y - py;
    } else {
      result[2 * index] = x - (2 * px - bx);
      result[2 * index + 1] = y - (2 * py - by);
    }
    bx = px;
    by = py;
    px = x;
    py = y;
  }
  return result;
}

/** The same with BigInt steps, for coordinates of 2^50 steps or more. @param {Point[]} points @param {number} scale */
function bigResiduals(points, scale) {
  const steps = points.map(([x, y]) => [BigInt(x * scale + 0), BigInt(y * scale + 0)]);
  const result = [];
  for (let index = 0; index < steps.length; index++) {
    const [x, y] = steps[index];
    if (index === 0) result.push(x, y);
    else if (index === 1) result.push(x - steps[0][0], y - steps[0][1]);
    else {
      const [px, py] = steps[index - 1];
      const [bx, by] = steps[index - 2];
      result.push(x - (2n * px - bx), y - (2n * py - by));
    }
  }
  return result;
}

/**
 * Rebuilds points from residuals, rejecting anything that overflows 64 bits or leaves the board.
 * @param {(number | bigint)[]} values
 * @param {number} scale
 * @returns {Point[]}
 */
export function pointsFromResiduals(values, scale) {
  if (values.length % 2 !== 0) throw WireError.invalidField('points.residuals');
  if (values.length / 2 > WireLimits.maximumPointsPerOperation) throw WireError.tooLarge('points');
  if (!SCALES.includes(scale)) throw WireError.invalidField('points.scale');
  /** @type {Point[]} */
  const points = new Array(values.length / 2);
  // Every point so far is on the board, so previous values stay below 2^40 and Number sums of them are
  // exact; a residual beyond 2^53 is a BigInt and can only land off the board or overflow.
  let px = 0;
  let py = 0;
  let bx = 0;
  let by = 0;
  for (let index = 0; index < points.length; index++) {
    const dx = values[2 * index];
    const dy = values[2 * index + 1];
    let x;
    let y;
    if (index === 0) {
      x = dx;
      y = dy;
    } else {
      const baseX = index === 1 ? px : 2 * px - bx;
      const baseY = index === 1 ? py : 2 * py - by;
      x = add(baseX, dx);
      y = add(baseY, dy);
      if (x === null || y === null) throw WireError.invalidField('points.residuals');
    }
    const pointX = Number(x) / scale;
    const pointY = Number(y) / scale;
    if (!(Math.abs(pointX) <= MAXIMUM_COORDINATE && Math.abs(pointY) <= MAXIMUM_COORDINATE)) {
      throw WireError.invalidField('points');
    }
    points[index] = [pointX, pointY];
    bx = px;
    by = py;
    px = /** @type {number} */ (x);
    py = /** @type {number} */ (y);
  }
  return points;
}

/**
 * `base + delta` as Int64 arithmetic: `null` on overflow.
 * @param {number} base
 * @param {number | bigint} delta
 */
function add(base, delta) {
  if (typeof delta === 'number') return base + delta;
  const sum = BigInt(base) + delta;
  return sum < MIN_INT64 || sum > MAX_INT64 ? null : sum;
}

/**
 * Pressures as bytes when each is exactly k/255 as a 32-bit float, else `null` (send raw floats).
 * @param {number[]} pressures
 */
export function pressureBytes(pressures) {
  const bytes = new Uint8Array(pressures.length);
  for (let index = 0; index < pressures.length; index++) {
    const pressure = Math.fround(pressures[index]);
    const scaled = Math.fround(pressure * 255);
    const step = Math.sign(scaled) * Math.round(Math.abs(scaled)); // Swift's .rounded(): half away from zero
    if (!(step >= 0 && step <= 255 && Math.fround(step / 255) === pressure)) return null;
    bytes[index] = step;
  }
  return bytes;
}

/** @param {Uint8Array} bytes */
export function pressuresFromBytes(bytes) {
  return Array.from(bytes, (byte) => Math.fround(byte / 255));
}

/**
 * Points and pressures as the fields of a `Points` message (see schema.js).
 * @param {Point[]} points
 * @param {number[] | null} pressures
 */
export function pointsMessage(points, pressures) {
  checkInk(points, pressures);
  const message = { scale: 0, residuals: [], raw: [], pressures: new Uint8Array(0), rawPressures: [] };
  const scale = gridScale(points);
  if (scale !== null) {
    message.scale = scale;
    message.residuals = residuals(points, scale);
  } else {
    message.raw = points.flat();
  }
  if (pressures != null) {
    const bytes = pressureBytes(pressures);
    if (bytes !== null) message.pressures = bytes;
    else message.rawPressures = pressures.map(Math.fround);
  }
  return message;
}

/**
 * Points and pressures from a decoded `Points` message, checked as Swift checks them.
 * @param {Record<string, any>} message
 * @returns {Ink}
 */
export function inkFromMessage(message) {
  /** @type {Point[]} */
  let points;
  if (message.scale === 0) {
    const raw = message.raw;
    if (raw.length % 2 !== 0) throw WireError.invalidField('points.raw');
    if (raw.length / 2 > WireLimits.maximumPointsPerOperation) throw WireError.tooLarge('points');
    points = new Array(raw.length / 2);
    for (let index = 0; index < points.length; index++) points[index] = [raw[2 * index], raw[2 * index + 1]];
  } else {
    points = pointsFromResiduals(message.residuals, message.scale);
  }
  if (message.pressures.length > 0) {
    if (message.pressures.length !== points.length) throw WireError.invalidField('points.pressures');
    return { points, pressures: pressuresFromBytes(message.pressures) };
  }
  if (message.rawPressures.length > 0) {
    if (message.rawPressures.length !== points.length) throw WireError.invalidField('points.raw_pressures');
    return { points, pressures: message.rawPressures };
  }
  return { points, pressures: null };
}

/**
 * An encoded `Points` message on its own: the in-progress ink of a presence frame.
 * @param {Point[]} points
 * @param {number[] | null} [pressures]
 * @returns {Uint8Array}
 */
export function encodePoints(points, pressures = null) {
  return encodeMessage(schema.Points, pointsMessage(points, pressures));
}

/**
 * Decodes an encoded `Points` message (a presence frame's in-progress ink).
 * @param {Uint8Array} bytes
 * @returns {Ink}
 */
export function decodePoints(bytes) {
  if (!(bytes instanceof Uint8Array)) throw WireError.invalidField('points');
  let message;
  try {
    message = decodeMessage(schema.Points, bytes);
  } catch (error) {
    throw WireError.malformed('points', error);
  }
  return inkFromMessage(message);
}

/** @param {unknown} points @param {unknown} pressures */
function checkInk(points, pressures) {
  if (!Array.isArray(points)) throw WireError.invalidField('points');
  for (const point of points) {
    if (!Array.isArray(point) || point.length !== 2 || typeof point[0] !== 'number' || typeof point[1] !== 'number') {
      throw WireError.invalidField('points');
    }
  }
  if (pressures != null && (!Array.isArray(pressures) || pressures.some((p) => typeof p !== 'number'))) {
    throw WireError.invalidField('pressures');
  }
}
