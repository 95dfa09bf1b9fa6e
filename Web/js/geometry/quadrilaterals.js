/**
 * Squaring up a four-edged polygon fit: the nearest rectangle, or the nearest upright diamond (Swift's
 * `ShapeRecognizer+Quadrilaterals`).
 */

import { add, scale, dot, radians } from './vector.js';

/**
 * The rectangle closest to a four-edged fit: edge directions averaged modulo 90°, each side through the
 * middle of its drawn edge. Corners follow the drawn ones; null if the edges do not alternate.
 * @param {{edges: import('./line-fit.js').LineFit[], vertices: [number, number][]}} fit
 * @param {import('./recognizer-config.js').RecognizerConfiguration} configuration
 * @returns {[number, number][] | null}
 */
export function squaredRectangle(fit, configuration) {
  let sumX = 0;
  let sumY = 0;
  for (const edge of fit.edges) {
    // The direction's angle times four, so edges 90° apart agree.
    const [dx, dy] = edge.direction;
    const doubleX = dx * dx - dy * dy;
    const doubleY = 2 * dx * dy;
    sumX = sumX + (doubleX * doubleX - doubleY * doubleY);
    sumY = sumY + 2 * doubleX * doubleY;
  }
  let rotation = Math.atan2(sumY, sumX) / 4;
  if (Math.abs(rotation) <= radians(configuration.axisSnapAngle)) rotation = 0;
  const u = rotation === 0 ? [1, 0] : [Math.cos(rotation), Math.sin(rotation)];
  const v = [-u[1], u[0]];
  // Which edges are sides of constant u (the others of constant v).
  const constantU = fit.edges.map((edge) => Math.abs(dot(edge.direction, u)) < Math.abs(dot(edge.direction, v)));
  if (!(constantU[0] === constantU[2] && constantU[1] === constantU[3] && constantU[0] !== constantU[1])) return null;
  return fit.vertices.map((_, index) => {
    const before = fit.edges[(index + 3) % 4];
    const after = fit.edges[index];
    const [sideU, sideV] = constantU[index] ? [after, before] : [before, after];
    return add(scale(u, dot(sideU.center, u)), scale(v, dot(sideV.center, v)));
  });
}

/**
 * The rhombus with horizontal and vertical diagonals closest to a four-edged fit; null unless the fit's
 * diagonals lie within `diamondAxisTolerance` of the axes.
 * @returns {[number, number][] | null}
 */
export function squaredDiamond(fit, configuration) {
  const corners = fit.vertices;
  const tolerance = radians(configuration.diamondAxisTolerance);
  for (let first = 0; first < 2; first++) {
    const a = corners[first];
    const b = corners[first + 2];
    const c = corners[first + 1];
    const d = corners[(first + 3) % 4];
    // a–b must be the vertical diagonal, c–d the horizontal one.
    if (
      !(Math.atan2(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1])) <= tolerance) ||
      !(Math.atan2(Math.abs(d[1] - c[1]), Math.abs(d[0] - c[0])) <= tolerance)
    ) {
      continue;
    }
    const center = [(c[0] + d[0]) / 2, (a[1] + b[1]) / 2];
    const result = [center, center, center, center];
    result[first] = [center[0], a[1]];
    result[first + 2] = [center[0], b[1]];
    result[first + 1] = [c[0], center[1]];
    result[(first + 3) % 4] = [d[0], center[1]];
    return result;
  }
  return null;
}
