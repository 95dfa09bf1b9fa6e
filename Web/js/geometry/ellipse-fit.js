/**
 * The ellipse closest to a loop: centred on its centroid, turned to its main axis, radii by least squares
 * (Swift's `EllipseFit`).
 */

import { moments } from './moments.js';
import { dot, cross, length, max } from './vector.js';

/**
 * The fit, or null for a degenerate loop (a back-and-forth scribble, all points on a line). `rotation` is in
 * radians in [−π/4, π/4]; `error` is the mean distance of the loop's samples from the ellipse as a fraction
 * of the perimeter.
 * @param {{points: [number, number][], perimeter: number}} loop
 * @returns {{center: [number, number], radiusX: number, radiusY: number, rotation: number, error: number} | null}
 */
export function ellipseFit(loop) {
  const points = loop.points;
  const { center, xx, yy, xy } = moments(points);
  let rotation = Math.atan2(2 * xy, xx - yy) / 2;
  if (rotation > Math.PI / 4) rotation -= Math.PI / 2;
  if (rotation < -Math.PI / 4) rotation += Math.PI / 2;
  const axis = [Math.cos(rotation), Math.sin(rotation)];
  // Least squares for u²/a² + v²/b² = 1, linear in A = 1/a² and B = 1/b².
  let uuuu = 0;
  let uuvv = 0;
  let vvvv = 0;
  let uu = 0;
  let vv = 0;
  for (const point of points) {
    const d = [point[0] - center[0], point[1] - center[1]];
    const u = dot(d, axis);
    const v = cross(axis, d);
    uuuu += u * u * u * u;
    uuvv += u * u * v * v;
    vvvv += v * v * v * v;
    uu += u * u;
    vv += v * v;
  }
  const determinant = uuuu * vvvv - uuvv * uuvv;
  if (!(determinant > 0)) return null;
  const a = (uu * vvvv - vv * uuvv) / determinant;
  const b = (vv * uuuu - uu * uuvv) / determinant;
  if (!(a > 0 && b > 0)) return null;
  let error = 0;
  for (const point of points) {
    const d = [point[0] - center[0], point[1] - center[1]];
    const u = dot(d, axis);
    const v = cross(axis, d);
    const scale = Math.sqrt(u * u * a + v * v * b);
    const size = length(d);
    error += scale > 0 ? Math.abs(size - size / scale) : 1 / Math.sqrt(max(a, b));
  }
  return {
    center,
    radiusX: 1 / Math.sqrt(a),
    radiusY: 1 / Math.sqrt(b),
    rotation,
    error: error / points.length / loop.perimeter,
  };
}
