/**
 * Lasso selection: whether a closed lasso polygon encloses a stroke (Swift's `Lasso`).
 *
 * Inside means a non-zero winding number, so a lasso drawn twice around, or crossing itself, still encloses
 * what the hand went around. A stroke is selected when at least `minimumInsideFraction` (0.9) of its visible
 * curve, by length, is inside: a lasso that clips the tail of a letter still takes the letter, a stroke that
 * merely crosses into the lasso is left out.
 *
 * @typedef {{polygon: [number, number][], bounds: import('./rect.js').Rect | null,
 *   minimumInsideFraction: number, tolerance: number}} Lasso
 */

import { boundingRect, rectContains, rectsIntersect } from './rect.js';
import { curveBounds } from './smooth-curve.js';
import { flattenCurve } from './flatten.js';
import { isDotVisible } from './curve-pieces.js';
import { sub, cross, interpolate, distance } from './vector.js';

/**
 * A lasso through `polygon` (the last corner joins the first). It encloses nothing with under three corners
 * or a non-finite one.
 * @param {[number, number][]} polygon
 * @returns {Lasso}
 */
export function lasso(polygon, { minimumInsideFraction = 0.9, tolerance = 0.5 } = {}) {
  const usable = polygon.length >= 3 && polygon.every((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]));
  return { polygon, bounds: usable ? boundingRect(polygon) : null, minimumInsideFraction, tolerance };
}

/** Whether `point` is inside by the non-zero winding rule (points on an edge may go either way). O(m). */
export function lassoContains(lassoValue, point) {
  const { polygon, bounds } = lassoValue;
  if (bounds === null || !rectContains(bounds, point[0], point[1])) return false;
  let winding = 0;
  let previous = polygon[polygon.length - 1];
  for (const corner of polygon) {
    const side = cross(sub(corner, previous), sub(point, previous));
    if (previous[1] <= point[1]) {
      if (corner[1] > point[1] && side > 0) winding += 1;
    } else if (corner[1] <= point[1] && side < 0) {
      winding -= 1;
    }
    previous = corner;
  }
  return winding !== 0;
}

/** The fraction of the segment a–b inside the lasso: cut where it crosses an edge, pieces judged by middle. */
function insideFraction(lassoValue, a, b) {
  const { polygon } = lassoValue;
  const direction = sub(b, a);
  const cuts = [0, 1];
  let previous = polygon[polygon.length - 1];
  for (const corner of polygon) {
    const edge = sub(corner, previous);
    const denominator = cross(direction, edge);
    if (denominator !== 0) {
      const offset = sub(previous, a);
      const t = cross(offset, edge) / denominator;
      const u = cross(offset, direction) / denominator;
      if (t > 0 && t < 1 && u >= 0 && u <= 1) cuts.push(t);
    }
    previous = corner;
  }
  cuts.sort((x, y) => x - y);
  let inside = 0;
  for (let i = 1; i < cuts.length; i++) {
    const lower = cuts[i - 1];
    const upper = cuts[i];
    if (upper > lower && lassoContains(lassoValue, interpolate(a, b, (lower + upper) / 2))) inside += upper - lower;
  }
  return inside;
}

/**
 * Whether the lasso selects the visible part of `curve` (`visible` null: the whole curve; pass null for a
 * visible dot). O(s · m · log m) for s flattened points and m corners.
 * @param {Lasso} lassoValue
 * @param {import('./smooth-curve.js').SmoothCurve} curve
 * @param {[number, number][] | null} [visible]
 */
export function lassoSelects(lassoValue, curve, visible = null) {
  const box = curveBounds(curve);
  if (lassoValue.bounds === null || box === null || !rectsIntersect(box, lassoValue.bounds)) return false;
  if (curve.segmentCount === 0) return isDotVisible(visible) && lassoContains(lassoValue, curve.points[0]);
  let total = 0;
  let inside = 0;
  const lonePoints = [];
  for (const interval of visible ?? [[0, curve.segmentCount]]) {
    if (!(interval[0] < interval[1])) continue;
    const samples = flattenCurve(curve, lassoValue.tolerance, interval);
    if (samples.length === 0) continue;
    lonePoints.push(samples[0].point);
    for (let i = 1; i < samples.length; i++) {
      const a = samples[i - 1].point;
      const b = samples[i].point;
      const size = distance(a, b);
      if (!Number.isFinite(size)) return false;
      total += size;
      inside += size * insideFraction(lassoValue, a, b);
    }
  }
  if (total > 0) return inside >= lassoValue.minimumInsideFraction * total;
  // Visible pieces of zero length (repeated samples): judge by their points.
  return lonePoints.length > 0 && lonePoints.every((p) => lassoContains(lassoValue, p));
}
