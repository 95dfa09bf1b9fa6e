/**
 * What a finished pen stroke becomes (Swift's `PenUp`): its points snapped to the ink grid, or, when shape
 * recognition is on and the stroke is a shape, the shape's clean outline as an ordinary stroke.
 *
 * Snapping when the stroke is made keeps every board bit-identical: the wire carries grid values exactly
 * (1/8 is a power of two) and the author already holds those values (Swift's `InkGrid`).
 */

import { recognizeShape, shapePolyline } from '../geometry/index.js';

/** Grid steps per board pixel. */
export const STEPS_PER_PIXEL = 8;
/** The most points one operation may carry (the board's limit): a longer stroke is split. */
export const MAXIMUM_POINTS = 100_000;

/** Swift's `rounded()`: halves go away from zero (`Math.round` sends −2.5 to −2). */
export function roundHalfAway(value) {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

/** A point on the 1/8-pixel grid. @param {[number, number]} point @returns {[number, number]} */
export function snapPoint(point) {
  return [roundHalfAway(point[0] * STEPS_PER_PIXEL) / STEPS_PER_PIXEL, roundHalfAway(point[1] * STEPS_PER_PIXEL) / STEPS_PER_PIXEL];
}

/** A pressure in 1/255 steps, computed in 32-bit floats as Swift's `Float` does. */
export function snapPressure(pressure) {
  const p = Math.fround(pressure);
  const clamped = Math.min(Math.max(p, 0), 1);
  const steps = roundHalfAway(Math.fround(clamped * 255));
  return Math.fround(steps / 255);
}

/** The pressure a stroke from a mouse or a finger starts at: the pen's full width, as slow ink has. */
export const SIMULATED_START = 1;
/** The thinnest simulated pressure: fast ink thins to this much of the pen's width, never to nothing. */
export const SIMULATED_FLOOR = 0.45;
/** Screen pixels between samples at which ink is as fast as it gets. */
const FAST_STEP = 24;
/** How far each sample moves the pressure toward its speed's (perfect-freehand's rate of change), at
 * full speed; at a quarter of it or less, a quarter of that. */
const PRESSURE_EASING = 0.275;

/**
 * The pressure for the next sample of input that reports none (a mouse, most touch screens), from its speed
 * as perfect-freehand simulates it: slow ink is full width, fast ink thinner, eased so that the width
 * swells and tapers rather than jumps. Only the author computes it; the stroke carries the result.
 * @param {number} previous the last sample's pressure
 * @param {number} distance screen pixels from the last sample (so zoom changes nothing)
 */
export function simulatedPressure(previous, distance) {
  const speed = Math.min(1, Math.max(0, distance) / FAST_STEP);
  const target = 1 - speed;
  const next = previous + (target - previous) * Math.max(speed, 0.25) * PRESSURE_EASING;
  return Math.min(1, Math.max(SIMULATED_FLOOR, next));
}

/**
 * The operations that commit a finished stroke, and the shape it was recognised as (`none` for ink).
 * @param {[number, number][]} points in drawing order
 * @param {number[] | null} pressures one per point, or null (mouse, touch)
 * @param {InkStyle} style
 * @param {boolean} recognizesShapes
 * @returns {{operations: object[], shape: import('../geometry/recognizer.js').RecognizedShape}}
 */
export function penUpOperations(points, pressures, style, recognizesShapes) {
  const shape = strokeShape(points, recognizesShapes);
  return { operations: [shape.kind === 'none' ? inkOperation(points, pressures, style) : shapeOperation(shape, style)], shape };
}

/**
 * The shape a finished stroke is, when recognition is on; `none` when it is ink.
 * @param {[number, number][]} points
 * @param {boolean} recognizesShapes
 * @returns {import('../geometry/recognizer.js').RecognizedShape}
 */
export function strokeShape(points, recognizesShapes) {
  return recognizesShapes && points.length >= 2 ? recognizeShape(points) : { kind: 'none' };
}

/**
 * The addStroke of ink: its points (and pressures) snapped.
 * @typedef {{colour: number, width: number, brush?: 'pen' | 'highlighter'}} InkStyle a highlighter's ink says so
 * @param {[number, number][]} points
 * @param {number[] | null} pressures
 * @param {InkStyle} style
 */
export function inkOperation(points, pressures, style) {
  return { op: 'addStroke', colour: style.colour, width: style.width, ...snappedInk(points, pressures), ...brushOf(style) };
}

/**
 * The appendPoints of more ink to a saved stroke: its points (and pressures) snapped.
 * @param {string} stroke
 * @param {[number, number][]} points
 * @param {number[] | null} pressures
 */
export function appendOperation(stroke, points, pressures) {
  return { op: 'appendPoints', stroke, ...snappedInk(points, pressures) };
}

/** Points and pressures on their grids, as every replica holds them. */
function snappedInk(points, pressures) {
  return { points: points.map(snapPoint), pressures: pressures === null ? null : pressures.map(snapPressure) };
}

/**
 * The addStroke of a recognised shape: its clean outline, snapped, with no pressure.
 * @param {import('../geometry/recognizer.js').RecognizedShape} shape not `none`
 * @param {InkStyle} style
 */
export function shapeOperation(shape, style) {
  const points = shapePolyline(shape).map(snapPoint);
  return { op: 'addStroke', colour: style.colour, width: style.width, points, pressures: null, ...brushOf(style) };
}

/** A pen's stroke names no brush, so it encodes exactly as before brushes. @param {InkStyle} style */
function brushOf(style) {
  return style.brush === 'highlighter' ? { brush: 'highlighter' } : {};
}
