/**
 * A curve as a polyline within a tolerance: for lasso tests and anything that needs straight pieces.
 *
 * Halves each Bézier until its control points are within the tolerance of its chord (then the curve is too,
 * by the convex hull property), as Swift's `SmoothCurve.flattened(in:tolerance:)`.
 */

import { blossomInto, splitInto, pieceInto, isFiniteBezier, bezierFlatness } from './bezier.js';
import { forEachRange } from './curve-pieces.js';

/**
 * Points `{parameter, point}` along the curve over `interval` (both ends included; default the whole
 * curve), close enough that the polyline through them is within `tolerance` of it. Every integer parameter
 * inside is included. A dot gives its one point, an empty curve nothing. A non-finite or non-positive
 * tolerance means a quarter pixel.
 * @param {import('./smooth-curve.js').SmoothCurve} curve
 * @param {number} tolerance
 * @param {[number, number]} [interval]
 * @returns {{parameter: number, point: [number, number]}[]}
 */
export function flattenCurve(curve, tolerance, interval = [0, curve.segmentCount]) {
  const first = curve.points[0];
  if (first === undefined || Number.isNaN(interval[0]) || Number.isNaN(interval[1])) return [];
  if (curve.segmentCount === 0) {
    return interval[0] <= 0 && interval[1] >= 0 ? [{ parameter: 0, point: [first[0], first[1]] }] : [];
  }
  const tol = Number.isFinite(tolerance) && tolerance > 0 ? tolerance : 0.25;
  const count = curve.segmentCount;
  const lower = 0 >= interval[0] ? 0 : interval[0];
  const upper = count < interval[1] ? count : interval[1];
  if (!(lower <= upper)) return [];
  const output = [{ parameter: lower, point: pointAt(curve, lower) }];
  if (lower === upper) {
    // Swift walks one empty segment here and adds nothing more.
    return output;
  }
  const stack = new Float64Array(8 * 18);
  forEachRange(curve, [lower, upper], (index, t0, t1) => {
    if (t0 === 0 && t1 === 1) {
      for (let k = 0; k < 8; k++) stack[k] = curve.segments[8 * index + k];
    } else {
      pieceInto(curve.segments, 8 * index, t0, t1, stack, 0);
    }
    flatten(stack, 0, index + t0, index + t1, tol, output);
  });
  return output;
}

function pointAt(curve, parameter) {
  const count = curve.segmentCount;
  const floor = Math.floor(parameter);
  const index = floor < count - 1 ? floor : count - 1;
  const t = parameter - index;
  const out = [0, 0];
  blossomInto(curve.segments, 8 * index, t, t, t, out, 0);
  return out;
}

/** Appends the points after the start of the piece at `stack[8 * depth..]`, halving as needed. */
function flatten(stack, depth, lower, upper, tolerance, output) {
  const o = 8 * depth;
  if (depth >= 16 || !isFiniteBezier(stack, o) || bezierFlatness(stack, o) <= tolerance) {
    output.push({ parameter: upper, point: [stack[o + 6], stack[o + 7]] });
    return;
  }
  const middle = (lower + upper) / 2;
  splitInto(stack, o, 0.5, stack, o + 8, null, 0);
  flatten(stack, depth + 1, lower, middle, tolerance, output);
  splitInto(stack, o, 0.5, null, 0, stack, o + 8);
  flatten(stack, depth + 1, middle, upper, tolerance, output);
}
