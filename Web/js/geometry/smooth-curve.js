/**
 * A stroke's pen points joined by centripetal Catmull–Rom, each span a cubic Bézier (Swift's `SmoothCurve`).
 *
 * Segment i runs from points[i] to points[i + 1], so parameter `i + f` means the same to the board model,
 * the eraser and the renderer. Centripetal Catmull–Rom passes through every sample and never forms a cusp or
 * a loop inside a segment. Build a curve once per stroke and reuse it: every function here reads it.
 *
 * @typedef {[number, number]} Point
 * @typedef {{points: Point[], segments: Float64Array, segmentCount: number}} SmoothCurve
 *   `segments` holds segment i's 8 numbers `[startX, startY, c1X, c1Y, c2X, c2Y, endX, endY]` at `8 * i`.
 */

import { blossomInto, bezierControlBounds } from './bezier.js';

/**
 * The smooth curve through `points`. `alpha` 0 is uniform, 0.5 centripetal (the product's), 1 chordal.
 * O(n).
 * @param {Point[]} points
 * @returns {SmoothCurve}
 */
export function smoothCurve(points, alpha = 0.5) {
  const count = points.length;
  const segmentCount = count > 1 ? count - 1 : 0;
  const segments = new Float64Array(8 * segmentCount);
  if (segmentCount === 0) return { points, segments, segmentCount };
  const gaps = new Float64Array(segmentCount);
  for (let i = 0; i < segmentCount; i++) gaps[i] = knotGap(points[i], points[i + 1], alpha);
  for (let i = 0; i < segmentCount; i++) {
    const p1 = points[i];
    const p2 = points[i + 1];
    const o = 8 * i;
    const d2 = gaps[i];
    segments[o] = p1[0];
    segments[o + 1] = p1[1];
    if (d2 === 0) {
      // A still segment: a dot, or two equal samples.
      for (let k = 2; k < 8; k += 2) {
        segments[o + k] = p1[0];
        segments[o + k + 1] = p1[1];
      }
      continue;
    }
    if (i > 0 && gaps[i - 1] > 0) {
      tangentControl(p1, p2, points[i - 1], gaps[i - 1], d2, segments, o + 2);
    } else {
      segments[o + 2] = (2 * p1[0] + p2[0]) / 3;
      segments[o + 3] = (2 * p1[1] + p2[1]) / 3;
    }
    if (i + 2 < count && gaps[i + 1] > 0) {
      tangentControl(p2, p1, points[i + 2], gaps[i + 1], d2, segments, o + 4);
    } else {
      segments[o + 4] = (2 * p2[0] + p1[0]) / 3;
      segments[o + 5] = (2 * p2[1] + p1[1]) / 3;
    }
    segments[o + 6] = p2[0];
    segments[o + 7] = p2[1];
  }
  return { points, segments, segmentCount };
}

/** |b − a|^alpha; for 0.5 as two square roots, since `Math.pow` is not exact and Swift does the same. */
function knotGap(a, b, alpha) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const squared = dx * dx + dy * dy;
  if (alpha === 0.5) return Math.sqrt(Math.sqrt(squared));
  if (alpha === 0) return squared > 0 ? 1 : 0;
  return Math.pow(Math.sqrt(squared), alpha);
}

/**
 * The control point next to `near` on the span near → far, `behind` being the sample before `near`
 * (Yuksel et al. 2011): `(d1² far − d2² behind + (2d1² + 3d1d2 + d2²) near) / (3d1(d1 + d2))`.
 */
function tangentControl(near, far, behind, dNear, dFar, out, k) {
  const a = dNear * dNear;
  const b = dFar * dFar;
  const m = 2 * a + 3 * dNear * dFar + b;
  const denominator = 3 * dNear * (dNear + dFar);
  out[k] = (a * far[0] - b * behind[0] + m * near[0]) / denominator;
  out[k + 1] = (a * far[1] - b * behind[1] + m * near[1]) / denominator;
}

/** The last parameter: n for n + 1 points; 0 for a dot or an empty curve. @param {SmoothCurve} curve */
export function endParameter(curve) {
  return curve.points.length > 1 ? curve.points.length - 1 : 0;
}

/**
 * Segment `index`'s Bézier as 8 numbers (a copy).
 * @param {SmoothCurve} curve
 * @returns {number[]}
 */
export function curveSegment(curve, index) {
  return Array.from(curve.segments.subarray(8 * index, 8 * index + 8));
}

/**
 * The point at `parameter`, clamped to 0..end; integer parameters give the samples exactly. An empty curve
 * or a NaN parameter gives [NaN, NaN]. O(1).
 * @param {SmoothCurve} curve
 * @returns {Point}
 */
export function curvePoint(curve, parameter) {
  const first = curve.points[0];
  if (first === undefined || Number.isNaN(parameter)) return [NaN, NaN];
  if (curve.segmentCount === 0) return [first[0], first[1]];
  const end = curve.segmentCount;
  const low = 0 >= parameter ? 0 : parameter;
  const clamped = end < low ? end : low;
  const floor = Math.floor(clamped);
  const index = floor < end - 1 ? floor : end - 1;
  const t = clamped - index;
  const out = [0, 0];
  blossomInto(curve.segments, 8 * index, t, t, t, out, 0);
  return out;
}

/**
 * The box holding the whole curve (its control points); `null` without points. O(n).
 * @param {SmoothCurve} curve
 * @returns {import('./rect.js').Rect | null}
 */
export function curveBounds(curve) {
  const first = curve.points[0];
  if (first === undefined) return null;
  let minX = first[0];
  let minY = first[1];
  let maxX = minX;
  let maxY = minY;
  const s = curve.segments;
  for (let i = 0; i < curve.segmentCount; i++) {
    const box = bezierControlBounds(s, 8 * i);
    minX = box.minX < minX ? box.minX : minX;
    minY = box.minY < minY ? box.minY : minY;
    maxX = box.maxX >= maxX ? box.maxX : maxX;
    maxY = box.maxY >= maxY ? box.maxY : maxY;
  }
  return { minX, minY, maxX, maxY };
}
