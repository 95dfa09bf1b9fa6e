/**
 * Length and even resampling of a polyline: every recogniser measure is taken on evenly spaced samples,
 * so it does not depend on how fast the pen moved or how often it was sampled.
 */

import { distance, interpolate, min, max } from './vector.js';

/**
 * The polyline's length; with `closed`, the segment back to the start counts too. O(n).
 * @param {[number, number][]} points
 */
export function pathLength(points, closed = false) {
  const count = points.length;
  if (count <= 1) return 0;
  let total = 0;
  for (let i = 1; i < count; i++) total += distance(points[i - 1], points[i]);
  if (closed) total += distance(points[count - 1], points[0]);
  return total;
}

/**
 * `target` points spaced evenly along the polyline, first and last kept; with `closed`, evenly around the
 * loop (closing segment included) without repeating the start. O(n + target).
 * @param {[number, number][]} points
 * @returns {[number, number][]}
 */
export function resampled(points, target, closed = false) {
  if (points.length === 0) return [];
  const first = points[0];
  const path = closed ? points.concat([first]) : points;
  const total = pathLength(path);
  const pieces = closed ? target : target - 1;
  if (!(total > 0 && pieces > 0)) return Array.from({ length: target }, () => [first[0], first[1]]);
  const result = [[first[0], first[1]]];
  let segment = 1;
  let walked = 0;
  let segmentLength = distance(path[0], path[1]);
  for (let index = 1; index < target; index++) {
    const along = (total * index) / pieces;
    while (walked + segmentLength < along && segment < path.length - 1) {
      walked += segmentLength;
      segment += 1;
      segmentLength = distance(path[segment - 1], path[segment]);
    }
    const fraction = segmentLength > 0 ? min(1, max(0, (along - walked) / segmentLength)) : 0;
    result.push(interpolate(path[segment - 1], path[segment], fraction));
  }
  if (!closed) {
    const last = path[path.length - 1];
    result[target - 1] = [last[0], last[1]];
  }
  return result;
}
