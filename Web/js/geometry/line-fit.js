/**
 * The straight line closest to a set of points (total least squares): their centroid and main direction.
 *
 * @typedef {{center: [number, number], direction: [number, number]}} LineFit `direction` is a unit vector.
 */

import { moments } from './moments.js';
import { sub, add, scale, dot, cross, lengthSquared, length } from './vector.js';

/**
 * The fit, or null when the points give no direction (fewer than two distinct points). The direction is the
 * covariance matrix's main eigenvector, found with a square root only, as in Swift.
 * @param {[number, number][]} points
 * @returns {LineFit | null}
 */
export function lineFit(points) {
  if (points.length === 0) return null;
  const { center, xx, yy, xy } = moments(points);
  const largest = (xx + yy + Math.sqrt((xx - yy) * (xx - yy) + 4 * xy * xy)) / 2;
  const first = [xy, largest - xx];
  const second = [largest - yy, xy];
  const vector = lengthSquared(first) >= lengthSquared(second) ? first : second;
  const size = length(vector);
  if (!(size > 0)) {
    if (!(xx > 0 || yy > 0)) return null;
    return { center, direction: xx >= yy ? [1, 0] : [0, 1] };
  }
  return { center, direction: [vector[0] / size, vector[1] / size] };
}

/** Signed distance along the line from its centre. */
export const along = (fit, p) => dot(sub(p, fit.center), fit.direction);

/** Signed distance from the line, positive on the clockwise side (y down). */
export const across = (fit, p) => cross(fit.direction, sub(p, fit.center));

/** Where two lines cross; null when they are within about 6° of parallel. */
export function intersection(fit, other) {
  const denominator = cross(fit.direction, other.direction);
  if (!(Math.abs(denominator) > 0.1)) return null;
  const t = cross(sub(other.center, fit.center), other.direction) / denominator;
  return add(fit.center, scale(fit.direction, t));
}
