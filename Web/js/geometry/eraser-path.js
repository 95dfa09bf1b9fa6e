/**
 * The eraser's centre line: a polyline (one point for a tap) swept by a circle of some radius.
 *
 * The swept area is every point within `radius` of the polyline. Distances use only `+ - * /` and one
 * square root, in Swift's order, so both sides compute the same doubles (Swift's `EraserPath`). Make one per
 * pointer move and reuse it for every stroke the spatial index finds.
 *
 * @typedef {{xy: Float64Array, count: number, radius: number, box: import('./rect.js').Rect,
 *   reach: import('./rect.js').Rect}} SweptPath
 *   `xy` holds the points as x0, y0, x1, y1, …; `reach` is their box grown by the radius: nothing outside
 *   it can be touched (query the spatial index with it).
 */

import { squaredDistanceToSegment } from './bezier.js';

/**
 * The area a circle of `radius` sweeps along `points`; null when there is nothing to sweep (no points, a
 * non-finite point, a radius that is negative, NaN or infinite).
 * @param {[number, number][]} points
 * @param {number} radius
 * @returns {SweptPath | null}
 */
export function sweptPath(points, radius) {
  if (!Number.isFinite(radius) || radius < 0 || points.length === 0) return null;
  const xy = new Float64Array(2 * points.length);
  let minX = points[0][0];
  let minY = points[0][1];
  let maxX = minX;
  let maxY = minY;
  for (let i = 0; i < points.length; i++) {
    const x = points[i][0];
    const y = points[i][1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
    xy[2 * i] = x;
    xy[2 * i + 1] = y;
    minX = x < minX ? x : minX;
    minY = y < minY ? y : minY;
    maxX = x >= maxX ? x : maxX;
    maxY = y >= maxY ? y : maxY;
  }
  return withRadius({ xy, count: points.length, radius: 0, box: { minX, minY, maxX, maxY }, reach: null }, radius);
}

/**
 * The same centre line with another radius (the stroke eraser grows it by half a stroke's width); shares
 * the points. Null for a radius that is negative or not finite.
 * @param {SweptPath} path
 * @returns {SweptPath | null}
 */
export function withRadius(path, radius) {
  if (!Number.isFinite(radius) || radius < 0) return null;
  const box = path.box;
  const reach = { minX: box.minX - radius, minY: box.minY - radius, maxX: box.maxX + radius, maxY: box.maxY + radius };
  return { xy: path.xy, count: path.count, radius, box, reach };
}

/** Number of polyline segments; a tap counts as one segment of length zero. */
export function pathSegmentCount(path) {
  return path.count > 1 ? path.count - 1 : 1;
}

/**
 * Writes to `out` the indices of the path segments whose swept box meets the box (minX, minY, maxX, maxY)
 * and returns how many. `out` must hold `pathSegmentCount(path)` entries. O(m).
 */
export function segmentsNear(path, minX, minY, maxX, maxY, out) {
  const xy = path.xy;
  const r = path.radius;
  const last = path.count - 1;
  const segments = pathSegmentCount(path);
  let found = 0;
  for (let index = 0; index < segments; index++) {
    const a = 2 * index;
    const b = 2 * (index + 1 < last ? index + 1 : last);
    const ax = xy[a];
    const ay = xy[a + 1];
    const bx = xy[b];
    const by = xy[b + 1];
    const sMinX = (bx < ax ? bx : ax) - r;
    const sMinY = (by < ay ? by : ay) - r;
    const sMaxX = (bx >= ax ? bx : ax) + r;
    const sMaxY = (by >= ay ? by : ay) + r;
    if (sMinX <= maxX && minX <= sMaxX && sMinY <= maxY && minY <= sMaxY) out[found++] = index;
  }
  return found;
}

/** The distance from (x, y) to the nearest of the first `count` segments listed in `segments`. */
export function distanceToSegments(path, x, y, segments, count) {
  const xy = path.xy;
  const last = path.count - 1;
  let best = Infinity;
  for (let i = 0; i < count; i++) {
    const index = segments[i];
    const a = 2 * index;
    const b = 2 * (index + 1 < last ? index + 1 : last);
    const squared = squaredDistanceToSegment(x, y, xy[a], xy[a + 1], xy[b], xy[b + 1]);
    if (squared < best) best = squared;
  }
  return Math.sqrt(best);
}

/** The distance from (x, y) to the whole centre line. */
export function distanceToPath(path, x, y) {
  const segments = pathSegmentCount(path);
  let best = Infinity;
  const xy = path.xy;
  const last = path.count - 1;
  for (let index = 0; index < segments; index++) {
    const a = 2 * index;
    const b = 2 * (index + 1 < last ? index + 1 : last);
    const squared = squaredDistanceToSegment(x, y, xy[a], xy[a + 1], xy[b], xy[b + 1]);
    if (squared < best) best = squared;
  }
  return Math.sqrt(best);
}
