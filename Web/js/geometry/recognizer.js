/**
 * Recognises a finished pen stroke as a line, rectangle, ellipse, triangle, arrow or diamond, or leaves it
 * ink: the port of Swift's `ShapeRecognizer`, answer for answer (see Conformance/recognition.json).
 *
 * Every measure is a ratio or an angle of the stroke resampled evenly along its length, so the result does
 * not depend on size, position, speed or sampling rate. Runs once per pen-up; a few hundred microseconds.
 *
 * @typedef {[number, number]} Point
 * @typedef {{kind: 'none'}
 *   | {kind: 'line' | 'rectangle' | 'triangle' | 'diamond', points: Point[]}
 *   | {kind: 'ellipse', center: Point, radiusX: number, radiusY: number, rotation: number}
 *   | {kind: 'arrow', tail: Point, tip: Point, head: Point[]}} RecognizedShape
 *   Line points are start and end in drawing order; polygon corners are in drawing order (a rectangle's
 *   with right angles, a diamond's with horizontal and vertical diagonals); an ellipse's rotation is in
 *   radians in [−π/4, π/4] and a circle has equal radii and rotation 0; an arrow's head is its two barb
 *   ends, the first drawn first.
 */

import { DEFAULT_CONFIGURATION } from './recognizer-config.js';
import { recognizeLine } from './recognize-line.js';
import { recognizeClosedShape } from './recognize-closed.js';
import { recognizeArrow } from './recognize-arrow.js';
import { pathLength, resampled } from './polyline.js';

/**
 * The shape `points`, one finished stroke in drawing order, was meant to be. O(n) plus a constant.
 * @param {Point[]} points
 * @param {Partial<import('./recognizer-config.js').RecognizerConfiguration>} [configuration] overrides
 * @returns {RecognizedShape}
 */
export function recognizeShape(points, configuration = DEFAULT_CONFIGURATION) {
  const config =
    configuration === DEFAULT_CONFIGURATION ? configuration : { ...DEFAULT_CONFIGURATION, ...configuration };
  const cleaned = [];
  for (const point of points) {
    const x = point[0];
    const y = point[1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const last = cleaned[cleaned.length - 1];
    if (last !== undefined && last[0] === x && last[1] === y) continue;
    cleaned.push([x, y]);
  }
  if (cleaned.length < 2) return { kind: 'none' };
  // Measured from the first point, so far-away drawings lose no precision.
  const [ox, oy] = cleaned[0];
  const local = cleaned.map((p) => [p[0] - ox, p[1] - oy]);
  const total = pathLength(local);
  if (!(total > 0 && Number.isFinite(total))) return { kind: 'none' };
  const samples = resampled(local, config.sampleCount);
  const shape =
    recognizeLine(samples, config) ?? recognizeClosedShape(samples, config) ?? recognizeArrow(samples, config);
  return shape === null ? { kind: 'none' } : translated(shape, [ox, oy]);
}

/**
 * The same shape moved by `offset`.
 * @param {RecognizedShape} shape
 * @param {Point} offset
 * @returns {RecognizedShape}
 */
export function translated(shape, offset) {
  const move = (p) => [p[0] + offset[0], p[1] + offset[1]];
  switch (shape.kind) {
    case 'line':
    case 'rectangle':
    case 'triangle':
    case 'diamond':
      return { kind: shape.kind, points: shape.points.map(move) };
    case 'ellipse':
      return { ...shape, center: move(shape.center) };
    case 'arrow':
      return { kind: 'arrow', tail: move(shape.tail), tip: move(shape.tip), head: shape.head.map(move) };
    default:
      return { kind: 'none' };
  }
}
