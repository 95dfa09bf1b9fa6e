/**
 * The boxes a stroke is filed under in the spatial index: one per run of segments.
 *
 * A long stroke's single box is mostly empty space; chunk boxes keep an eraser from finding strokes that
 * only pass near it. Boxes are of control points, so they hold the curve (Swift's `chunkBounds`).
 */

import { bezierControlBounds } from './bezier.js';

/**
 * Boxes holding the curve, one per `pointsPerChunk` segments; a dot gives one zero-size box. O(n).
 * @param {import('./smooth-curve.js').SmoothCurve} curve
 * @returns {import('./rect.js').Rect[]}
 */
export function chunkBounds(curve, pointsPerChunk = 16) {
  const first = curve.points[0];
  if (first === undefined) return [];
  if (curve.segmentCount === 0) return [{ minX: first[0], minY: first[1], maxX: first[0], maxY: first[1] }];
  const size = pointsPerChunk >= 1 ? Math.floor(pointsPerChunk) : 1;
  const boxes = [];
  for (let start = 0; start < curve.segmentCount; start += size) {
    const box = bezierControlBounds(curve.segments, 8 * start);
    const end = Math.min(start + size, curve.segmentCount);
    for (let i = start + 1; i < end; i++) {
      const next = bezierControlBounds(curve.segments, 8 * i);
      box.minX = next.minX < box.minX ? next.minX : box.minX;
      box.minY = next.minY < box.minY ? next.minY : box.minY;
      box.maxX = next.maxX >= box.maxX ? next.maxX : box.maxX;
      box.maxY = next.maxY >= box.maxY ? next.maxY : box.maxY;
    }
    boxes.push(box);
  }
  return boxes;
}

/**
 * Boxes holding the smooth curve through `points`, one per `pointsPerChunk` segments as `chunkBounds`
 * files them, without building the curve: each run's points, grown by two thirds of its longest segment.
 * A centripetal Catmull–Rom control point lies less than two thirds of its segment's length from the
 * segment's sample (smooth-curve.js `tangentControl`: `|c − near| ≤ 2·d₀·|far − near| / (3(d₀ + d₁))`, with
 * d the knot gaps), and a Bézier stays inside its control points. Looser than `chunkBounds`, and cheaper:
 * a board opening with tens of thousands of strokes files them all before it smooths any. Also returns the
 * mean distance between consecutive points (0 for a dot), from the same pass. O(n).
 * @param {[number, number][]} points
 * @returns {{boxes: import('./rect.js').Rect[], spacing: number}}
 */
export function pointChunkBounds(points, pointsPerChunk = 16) {
  const first = points[0];
  if (first === undefined) return { boxes: [], spacing: 0 };
  if (points.length === 1) return { boxes: [{ minX: first[0], minY: first[1], maxX: first[0], maxY: first[1] }], spacing: 0 };
  const size = pointsPerChunk >= 1 ? Math.floor(pointsPerChunk) : 1;
  const segments = points.length - 1;
  const boxes = [];
  let total = 0;
  for (let start = 0; start < segments; start += size) {
    const end = Math.min(start + size, segments);
    let [minX, minY] = points[start];
    let [maxX, maxY] = points[start];
    let longest = 0;
    for (let i = start + 1; i <= end; i++) {
      const [x, y] = points[i];
      const [px, py] = points[i - 1];
      const length = Math.hypot(x - px, y - py);
      total += length;
      if (length > longest) longest = length;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    const reach = (2 / 3) * longest;
    boxes.push({ minX: minX - reach, minY: minY - reach, maxX: maxX + reach, maxY: maxY + reach });
  }
  return { boxes, spacing: total / segments };
}
