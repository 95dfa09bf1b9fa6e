/**
 * A closed stroke resampled evenly around its outline, with the turn measured at every sample and its
 * corners found (Swift's `Loop`).
 *
 * @typedef {{points: [number, number][], perimeter: number, turns: number[], totalTurning: number,
 *   corners: number[]}} Loop
 *   `turns[i]` is the turn in radians at sample i over `cornerWindow` samples either side (positive
 *   clockwise on screen); `totalTurning` is ±2π for a simple loop, ±4π for a star, 0 for a figure eight.
 */

import { resampled, pathLength } from './polyline.js';
import { sub, angle, distanceToPolygon, radians } from './vector.js';

/**
 * @param {[number, number][]} outline the closed part of the stroke, in drawing order
 * @param {import('./recognizer-config.js').RecognizerConfiguration} configuration
 * @returns {Loop}
 */
export function makeLoop(outline, configuration) {
  const points = resampled(outline, configuration.loopSampleCount, true);
  const perimeter = pathLength(points, true);
  const count = points.length;
  const window = configuration.cornerWindow;
  const turns = new Array(count);
  for (let index = 0; index < count; index++) {
    const before = points[(index - window + count) % count];
    const after = points[(index + window) % count];
    turns[index] = angle(sub(points[index], before), sub(after, points[index]));
  }
  // Measured along the drawn stroke, with tangents over `window` samples, and closed by the shortest turn
  // from the last tangent to the first: the closing segment may point anywhere when the ends overlap.
  const drawn = resampled(outline, count);
  const tangents = [];
  for (let i = 0; i < count - window; i++) tangents.push(sub(drawn[i + window], drawn[i]));
  let total = angle(tangents[tangents.length - 1], tangents[0]);
  for (let i = 1; i < tangents.length; i++) total += angle(tangents[i - 1], tangents[i]);
  const threshold = radians(configuration.cornerAngle);
  const corners = [];
  for (let index = 0; index < count; index++) {
    const turn = Math.abs(turns[index]);
    if (!(turn >= threshold)) continue;
    let isCorner = true;
    for (let offset = 1; offset <= window; offset++) {
      if (Math.abs(turns[(index - offset + count) % count]) >= turn) isCorner = false;
      else if (Math.abs(turns[(index + offset) % count]) > turn) isCorner = false;
      if (!isCorner) break;
    }
    if (isCorner) corners.push(index);
  }
  return { points, perimeter, turns, totalTurning: total, corners };
}

/** The `count` strongest corners, in order around the loop; null if there are fewer. @param {Loop} loop */
export function strongestCorners(loop, count) {
  if (loop.corners.length < count) return null;
  const turns = loop.turns;
  const strongest = loop.corners.slice().sort((a, b) => {
    const ta = Math.abs(turns[a]);
    const tb = Math.abs(turns[b]);
    if (ta > tb) return -1;
    if (tb > ta) return 1;
    return a - b;
  });
  return strongest.slice(0, count).sort((a, b) => a - b);
}

/** Mean distance of the loop's samples from the closed polygon, as a fraction of the perimeter. */
export function loopError(loop, polygon) {
  let sum = 0;
  for (const point of loop.points) sum += distanceToPolygon(point, polygon);
  return sum / loop.points.length / loop.perimeter;
}
