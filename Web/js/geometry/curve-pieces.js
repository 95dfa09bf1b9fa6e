/**
 * The visible pieces of a (partially erased) stroke as Béziers, for the renderer and the SVG writer.
 *
 * Pieces are parameter intervals `[a, b)`; each is drawn as one Bézier per segment it touches, the end ones
 * cut at the fractional parameters with the polar form, exactly as Swift's `SmoothCurve.beziers(in:)`.
 */

import { pieceInto } from './bezier.js';

/**
 * The segment-local ranges `{index, lower, upper}` (0 ≤ lower < upper ≤ 1) that `visible` shows, in order.
 * `visible` null means the whole curve; intervals are clamped to the curve, NaN and empty ones show nothing.
 * O(v + k) for v intervals covering k segments.
 * @param {import('./smooth-curve.js').SmoothCurve} curve
 * @param {[number, number][] | null} visible
 * @returns {{index: number, lower: number, upper: number}[]}
 */
export function visibleRanges(curve, visible = null) {
  const ranges = [];
  if (curve.segmentCount === 0) return ranges;
  for (const interval of visible ?? [[0, curve.segmentCount]]) {
    forEachRange(curve, interval, (index, lower, upper) => ranges.push({ index, lower, upper }));
  }
  return ranges;
}

/**
 * Calls `body(index, t0, t1)` for each segment part the interval covers; the shared walk of every
 * interval-to-segments conversion (Swift repeats it in `beziers(in:)`, `visibleRanges` and flattening).
 */
export function forEachRange(curve, interval, body) {
  const count = curve.segmentCount;
  const a = interval[0];
  const b = interval[1];
  if (count === 0 || Number.isNaN(a) || Number.isNaN(b)) return;
  const lower = 0 >= a ? 0 : a;
  const upper = count < b ? count : b;
  if (!(lower < upper)) return;
  const floor = Math.floor(lower);
  const firstIndex = floor < count - 1 ? floor : count - 1;
  const ceil = Math.ceil(upper) - 1;
  const atLeast = firstIndex >= ceil ? firstIndex : ceil;
  const lastIndex = atLeast < count - 1 ? atLeast : count - 1;
  for (let index = firstIndex; index <= lastIndex; index++) {
    const t0 = index === firstIndex ? lower - index : 0;
    const t1 = index === lastIndex ? upper - index : 1;
    if (t0 < t1) body(index, t0, t1);
  }
}

/**
 * Whether a dot (one-point curve) shows: always for null, else when an interval covers parameter 0.
 * @param {[number, number][] | null} visible
 */
export function isDotVisible(visible) {
  if (visible === null || visible === undefined) return true;
  return visible.some((interval) => interval[0] <= 0 && 0 < interval[1]);
}

/**
 * The exact sub-curve over `interval` `[a, b)`: one Bézier (8 numbers) per segment it touches. The first
 * starts at `curvePoint(a)` and the last ends at `curvePoint(b)`, bit for bit. A dot gives one still Bézier
 * when the interval covers 0 (round caps draw it as a dot); an empty or NaN interval gives nothing.
 * @param {import('./smooth-curve.js').SmoothCurve} curve
 * @param {[number, number]} interval
 * @returns {number[][]}
 */
export function curveBeziers(curve, interval) {
  const first = curve.points[0];
  if (first === undefined || Number.isNaN(interval[0]) || Number.isNaN(interval[1])) return [];
  if (curve.segmentCount === 0) {
    if (!(interval[0] <= 0 && 0 < interval[1])) return [];
    const [x, y] = first;
    return [[x, y, x, y, x, y, x, y]];
  }
  const pieces = [];
  const s = curve.segments;
  forEachRange(curve, interval, (index, t0, t1) => {
    const o = 8 * index;
    const piece = new Array(8);
    if (t0 === 0 && t1 === 1) {
      for (let k = 0; k < 8; k++) piece[k] = s[o + k];
    } else {
      pieceInto(s, o, t0, t1, piece, 0);
    }
    pieces.push(piece);
  });
  return pieces;
}
