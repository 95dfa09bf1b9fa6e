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
