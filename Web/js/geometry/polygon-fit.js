/**
 * A polygon fitted to a loop at given corners: a straight line through the middle of each edge, the
 * vertices where neighbouring lines cross (Swift's `PolygonFit`). The ends of each edge are left out of its
 * line fit because people round their corners.
 */

import { lineFit, intersection } from './line-fit.js';

/**
 * `{edges, vertices}`: edge i runs from corner i to corner i + 1, vertex i is where edge i − 1 meets edge i
 * (the corner sample when they are nearly parallel). Null when an edge has no direction.
 * @param {import('./loop.js').Loop} loop
 * @param {number[]} corners sample indices in order around the loop
 * @returns {{edges: import('./line-fit.js').LineFit[], vertices: [number, number][]} | null}
 */
export function polygonFit(loop, corners, trim) {
  const count = loop.points.length;
  const edges = [];
  for (let position = 0; position < corners.length; position++) {
    const corner = corners[position];
    const next = corners[(position + 1) % corners.length];
    const span = (next - corner + count) % count;
    const margin = Math.trunc(span * trim);
    const inner = [];
    for (let k = margin; k <= span - margin; k++) inner.push(loop.points[(corner + k) % count]);
    const fit = lineFit(inner.length >= 2 ? inner : [loop.points[corner], loop.points[next]]);
    if (fit === null) return null;
    edges.push(fit);
  }
  const vertices = [];
  for (let position = 0; position < corners.length; position++) {
    const previous = edges[(position + edges.length - 1) % edges.length];
    vertices.push(intersection(previous, edges[position]) ?? loop.points[corners[position]]);
  }
  return { edges, vertices };
}
