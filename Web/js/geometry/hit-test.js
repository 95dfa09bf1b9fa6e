/**
 * The stroke eraser's test: does an eraser move touch a stroke's painted ink (Swift's `StrokeEraser`)?
 *
 * Touching the ink counts, not only the centre line: the eraser path, grown by half the stroke's width,
 * must meet a visible part of the curve. It runs the partial eraser's sweep and stops at the first covered
 * piece, so it agrees with `cutCurve` on whether anything would be cut.
 */

import { controlBoundsInto, isFiniteBezier, pieceInto } from './bezier.js';
import { withRadius, distanceToPath } from './eraser-path.js';
import { sweepSegment } from './segment-sweep.js';
import { forEachRange, isDotVisible } from './curve-pieces.js';

const piece = new Float64Array(8);
const box = new Float64Array(4);

/**
 * Whether the eraser `swept` (built with the eraser's own radius) touches the ink of `curve` drawn `width`
 * pixels wide. `visible` lists the stroke's visible intervals, null for the whole stroke; erased parts are
 * never hit (for a dot pass null unless it is erased). False for a non-finite or negative width and for an
 * empty path or curve. Cost as `cutCurve`, stopping at the first hit.
 * @param {import('./smooth-curve.js').SmoothCurve} curve
 * @param {number} width
 * @param {import('./eraser-path.js').SweptPath | null} swept
 * @param {[number, number][] | null} [visible]
 * @returns {boolean}
 */
export function strokeHit(curve, width, swept, visible = null) {
  const first = curve.points[0];
  if (!Number.isFinite(width) || width < 0 || first === undefined || swept === null) return false;
  const grown = withRadius(swept, swept.radius + width / 2);
  if (grown === null) return false;
  if (curve.segmentCount === 0) {
    return isDotVisible(visible) && distanceToPath(grown, first[0], first[1]) <= grown.radius;
  }
  const s = curve.segments;
  const reach = grown.reach;
  let hit = false;
  for (const interval of visible ?? [[0, curve.segmentCount]]) {
    forEachRange(curve, interval, (index, lower, upper) => {
      if (hit) return;
      const o = 8 * index;
      let source = s;
      let offset = o;
      if (!(lower === 0 && upper === 1)) {
        pieceInto(s, o, lower, upper, piece, 0);
        source = piece;
        offset = 0;
      }
      controlBoundsInto(source, offset, box);
      if (!isFiniteBezier(source, offset)) return;
      if (!(box[0] <= reach.maxX && reach.minX <= box[2] && box[1] <= reach.maxY && reach.minY <= box[3])) return;
      if (sweepSegment(grown, s, o, source, offset, lower, upper, box[0], box[1], box[2], box[3], true) > 0) hit = true;
    });
    if (hit) return true;
  }
  return false;
}
