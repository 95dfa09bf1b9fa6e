/**
 * Point and vector arithmetic for the recogniser, on `[x, y]` arrays.
 *
 * Each function does Swift's `Point` operations in Swift's order (e.g. `distance` is `sqrt(dx*dx + dy*dy)`
 * of `self - other`), so the recogniser's thresholds are crossed at the same strokes on both sides.
 *
 * @typedef {[number, number]} Point
 */

/** @returns {Point} */
export const add = (a, b) => [a[0] + b[0], a[1] + b[1]];
/** @returns {Point} */
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1]];
/** @returns {Point} */
export const scale = (a, s) => [a[0] * s, a[1] * s];
/** @returns {Point} */
export const divide = (a, s) => [a[0] / s, a[1] / s];
/** @returns {Point} */
export const negate = (a) => [-a[0], -a[1]];
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1];
/** The z of the cross product: positive when `b` turns clockwise from `a` on screen (y down). */
export const cross = (a, b) => a[0] * b[1] - a[1] * b[0];
export const lengthSquared = (a) => a[0] * a[0] + a[1] * a[1];
export const length = (a) => Math.sqrt(a[0] * a[0] + a[1] * a[1]);

/** |a − b|. */
export function distance(a, b) {
  const dx = a[0] - b[0];
  const dy = a[1] - b[1];
  return Math.sqrt(dx * dx + dy * dy);
}

/** The point a fraction `t` of the way from `a` to `b`. @returns {Point} */
export const interpolate = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];

/** The signed angle in radians from vector `a` to vector `b`, in (−π, π]; positive turns clockwise on screen. */
export const angle = (a, b) => Math.atan2(cross(a, b), dot(a, b));

/** Swift's `min`/`max`: the first argument unless the second is smaller (larger); NaN-safe in Swift's way. */
export const min = (a, b) => (b < a ? b : a);
export const max = (a, b) => (b >= a ? b : a);

/** Degrees to radians, as Swift computes them. */
export const radians = (degrees) => (degrees * Math.PI) / 180;

/** Distance from `p` to the segment `start`–`end`. */
export function distanceToSegment(p, start, end) {
  const edge = sub(end, start);
  const squared = lengthSquared(edge);
  if (!(squared > 0)) return distance(p, start);
  const t = min(1, max(0, dot(sub(p, start), edge) / squared));
  return distance(p, add(start, scale(edge, t)));
}

/** Distance from `p` to the closed polygon through `corners`. */
export function distanceToPolygon(p, corners) {
  let best = Infinity;
  for (let i = 0; i < corners.length; i++) {
    best = min(best, distanceToSegment(p, corners[i], corners[(i + 1) % corners.length]));
  }
  return best;
}

const HALF = Math.sqrt(0.5);
/** The eight directions a line snaps to, exact so snapped lines are exactly straight. */
const COMPASS = [
  [1, 0], [HALF, HALF], [0, 1], [-HALF, HALF], [-1, 0], [-HALF, -HALF], [0, -1], [HALF, -HALF],
];

/** `direction` (a unit vector) turned onto the first compass direction within `tolerance` radians of it. */
export function snapped(direction, tolerance) {
  for (const compass of COMPASS) {
    if (Math.abs(angle(compass, direction)) <= tolerance) return [compass[0], compass[1]];
  }
  return direction;
}

/** The corners rotated so the one nearest `start` comes first, keeping their order. */
export function rotatedToStartNearest(corners, start) {
  if (corners.length === 0) return corners;
  let first = 0;
  for (let i = 0; i < corners.length; i++) {
    if (distance(corners[i], start) < distance(corners[first], start)) first = i;
  }
  return corners.slice(first).concat(corners.slice(0, first));
}
