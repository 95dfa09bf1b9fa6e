/**
 * The partial eraser: cuts from a stroke the parts an eraser circle swept along a path covers (Swift's
 * `PartialEraser`).
 *
 * The result is in the stroke's parameter space, ready for an `erase(stroke, intervals)` change: a parameter
 * is cut when its curve point is within the radius of the eraser path. Each interval end lies within 0.04 px
 * of the swept area's edge and matches Swift's to the last bit on the conformance vectors.
 */

import { isFiniteBezier } from './bezier.js';
import { sweptPath, distanceToPath } from './eraser-path.js';
import { sweepSegment, coveredLower, coveredUpper } from './segment-sweep.js';

/**
 * The sorted, disjoint parameter intervals `[a, b)` of `curve` within `swept.radius` of the eraser path.
 *
 * A dot (one-point curve) is cut as [0, 1) when touched. A null path (see `sweptPath`) or an empty curve cuts
 * nothing; a segment with a non-finite control point is skipped.
 * O(n · m) box tests for n curve segments and m path segments, plus O(log(L / 0.02)) distance evaluations
 * per boundary for segments near the path.
 * @param {import('./smooth-curve.js').SmoothCurve} curve
 * @param {import('./eraser-path.js').SweptPath | null} swept
 * @returns {[number, number][]}
 */
export function cutCurve(curve, swept) {
  const first = curve.points[0];
  if (swept === null || first === undefined) return [];
  if (curve.segmentCount === 0) {
    return distanceToPath(swept, first[0], first[1]) <= swept.radius ? [[0, 1]] : [];
  }
  const cuts = [];
  const s = curve.segments;
  const reach = swept.reach;
  for (let index = 0; index < curve.segmentCount; index++) {
    const o = 8 * index;
    // The control box, inline: this loop runs over every segment of every stroke the index finds.
    let minX = s[o];
    let minY = s[o + 1];
    let maxX = minX;
    let maxY = minY;
    for (let k = 2; k < 8; k += 2) {
      const x = s[o + k];
      const y = s[o + k + 1];
      minX = x < minX ? x : minX;
      minY = y < minY ? y : minY;
      maxX = x >= maxX ? x : maxX;
      maxY = y >= maxY ? y : maxY;
    }
    if (!(minX <= reach.maxX && reach.minX <= maxX && minY <= reach.maxY && reach.minY <= maxY)) continue;
    if (!isFiniteBezier(s, o)) continue;
    const found = sweepSegment(swept, s, o, s, o, 0, 1, minX, minY, maxX, maxY, false);
    for (let i = 0; i < found; i++) {
      const lowerT = coveredLower(i);
      const upperT = coveredUpper(i);
      if (!(lowerT < upperT)) continue;
      const lower = index + lowerT;
      const upper = index + upperT;
      const last = cuts[cuts.length - 1];
      if (last !== undefined && lower <= last[1]) {
        last[1] = upper >= last[1] ? upper : last[1];
      } else {
        cuts.push([lower, upper]);
      }
    }
  }
  return cuts;
}

/**
 * What an eraser of `radius` moved along `path` (one point: a tap) cuts from `curve`. When one eraser move
 * is tested against many strokes, build the `sweptPath` once and call `cutCurve` instead.
 * @param {import('./smooth-curve.js').SmoothCurve} curve
 * @param {[number, number][]} path
 * @param {number} radius
 * @returns {[number, number][]}
 */
export function eraseIntervals(curve, path, radius) {
  return cutCurve(curve, sweptPath(path, radius));
}
