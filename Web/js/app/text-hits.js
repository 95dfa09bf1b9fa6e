/**
 * Where a point, a drag or an eraser lands on a text box. A box is the box of its lines (measured, see
 * text-layout.js) under its transform: a parallelogram on the board, given by its corners clockwise from
 * the top left. Pure geometry, so it is tested with any measure.
 */

import { lasso, lassoContains } from '../geometry/index.js';
import { LINE_HEIGHT, textLines } from './text-layout.js';

/**
 * @typedef {[number, number]} Point
 * @typedef {import('./scene.js').SceneStroke} SceneStroke
 */

/**
 * Whether `point` is inside the box, or within `tolerance` of its edge.
 * @param {Point[]} corners
 * @param {Point} point
 * @param {number} [tolerance]
 */
export function boxContains(corners, point, tolerance = 0) {
  if (lassoContains(lasso(corners), point)) return true;
  return edges(corners).some(([a, b]) => segmentDistance(point, point, a, b) <= tolerance);
}

/**
 * Whether an eraser circle of `radius` moved along `path` touches the box (the stroke eraser).
 * @param {Point[]} corners
 * @param {Point[]} path one point for a tap
 * @param {number} radius
 */
export function boxTouched(corners, path, radius) {
  if (path.length === 0) return false;
  if (path.some((point) => lassoContains(lasso(corners), point))) return true;
  const steps = path.length === 1 ? [[path[0], path[0]]] : path.slice(1).map((point, i) => [path[i], point]);
  return steps.some(([p, q]) => edges(corners).some(([a, b]) => segmentDistance(p, q, a, b) <= radius));
}

/**
 * Whether a selection shape takes the box: all its corners inside, or (`centre`) its middle.
 * @param {Point[]} corners
 * @param {(point: Point) => boolean} inside
 * @param {{centre?: boolean}} [options]
 */
export function boxInside(corners, inside, { centre = false } = {}) {
  if (corners.every(inside)) return true;
  return centre && inside([(corners[0][0] + corners[2][0]) / 2, (corners[0][1] + corners[2][1]) / 2]);
}

/**
 * The topmost text box with text under `point` (within `tolerance`), or null.
 * @param {import('./scene.js').Scene} scene
 * @param {Point} point
 * @param {number} [tolerance] board pixels
 * @returns {string | null}
 */
export function boxAt(scene, point, tolerance = 0) {
  const reach = { minX: point[0] - tolerance, minY: point[1] - tolerance, maxX: point[0] + tolerance, maxY: point[1] + tolerance };
  const hits = scene
    .near(reach)
    .filter((stroke) => isBox(stroke) && stroke.text !== '' && stroke.shown.length > 0 && boxContains(stroke.corners, point, tolerance));
  return hits.length === 0 ? null : scene.sort(hits)[hits.length - 1].id;
}

/** Whether a scene stroke is a text box (an image has corners too, and no text). */
function isBox(stroke) {
  return stroke.corners !== undefined && stroke.text !== undefined;
}

/**
 * The caret (in Unicode scalars) nearest a point on a box: on the line under it, between the characters
 * nearest it.
 * @param {{text?: string, width: number, points: Point[], transform: number[]}} box
 * @param {Point} point on the board
 * @param {import('./text-layout.js').Measure} measure
 */
export function caretAt(box, point, measure) {
  const [x, y] = boxPoint(box.transform, point);
  const [left, top] = box.points[0];
  const size = box.width;
  const lines = textLines(box.text ?? '');
  const row = Math.max(0, Math.min(lines.length - 1, Math.floor((y - top) / (size * LINE_HEIGHT))));
  let caret = 0;
  for (let i = 0; i < row; i++) caret += [...lines[i]].length + 1;
  const chars = [...lines[row]];
  const width = (count) => (count === 0 ? 0 : measure(chars.slice(0, count).join(''), size));
  // Widths grow with the prefix: find the first prefix reaching the point, then the nearer of it and the one before.
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (left + width(middle) < x) low = middle + 1;
    else high = middle;
  }
  const best = low > 0 && Math.abs(x - left - width(low - 1)) <= Math.abs(left + width(low) - x) ? low - 1 : low;
  return caret + best;
}

/** A board point in the box's own coordinates (before its transform). @returns {Point} */
export function boxPoint(t, [x, y]) {
  const det = t[0] * t[3] - t[1] * t[2];
  if (!(Math.abs(det) > 0)) return [x - t[4], y - t[5]];
  const dx = x - t[4];
  const dy = y - t[5];
  return [(t[3] * dx - t[2] * dy) / det, (t[0] * dy - t[1] * dx) / det];
}

/** The box's four sides. @param {Point[]} corners @returns {[Point, Point][]} */
function edges(corners) {
  return corners.map((corner, i) => [corner, corners[(i + 1) % corners.length]]);
}

/** The distance between segments p–q and a–b (0 where they cross). */
export function segmentDistance(p, q, a, b) {
  if (crosses(p, q, a, b)) return 0;
  return Math.min(pointDistance(p, a, b), pointDistance(q, a, b), pointDistance(a, p, q), pointDistance(b, p, q));
}

function crosses(p, q, a, b) {
  const side = (u, v, w) => Math.sign((v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0]));
  const d1 = side(a, b, p);
  const d2 = side(a, b, q);
  const d3 = side(p, q, a);
  const d4 = side(p, q, b);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

function pointDistance(point, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length = dx * dx + dy * dy;
  const t = length > 0 ? Math.max(0, Math.min(1, ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / length)) : 0;
  return Math.hypot(point[0] - (a[0] + t * dx), point[1] - (a[1] + t * dy));
}
