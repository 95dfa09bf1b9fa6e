/**
 * Cubic Bézier segments, stored as 8 numbers `[startX, startY, c1X, c1Y, c2X, c2Y, endX, endY]` at an offset
 * in any array (a curve keeps all its segments in one Float64Array).
 *
 * Evaluation is de Casteljau with `(1 - t) * a + t * b` at each step, exactly as Swift's `CubicBezier`, so
 * `t = 0` and `t = 1` give the end points bit for bit and both sides compute the same doubles. The `...Into`
 * functions write into caller-owned storage so the eraser's inner loops allocate nothing.
 *
 * @typedef {ArrayLike<number>} BezierArray
 */

/**
 * Writes the polar form (one de Casteljau level at each of u, v, w) of the Bézier at `b[o..o+8)` to
 * `out[k]`, `out[k + 1]`. `blossomInto(b, o, t, t, t, ...)` is the point at t.
 */
export function blossomInto(b, o, u, v, w, out, k) {
  const su = 1 - u;
  const sv = 1 - v;
  const sw = 1 - w;
  const ax = su * b[o] + u * b[o + 2];
  const ay = su * b[o + 1] + u * b[o + 3];
  const bx = su * b[o + 2] + u * b[o + 4];
  const by = su * b[o + 3] + u * b[o + 5];
  const cx = su * b[o + 4] + u * b[o + 6];
  const cy = su * b[o + 5] + u * b[o + 7];
  const abx = sv * ax + v * bx;
  const aby = sv * ay + v * by;
  const bcx = sv * bx + v * cx;
  const bcy = sv * by + v * cy;
  out[k] = sw * abx + w * bcx;
  out[k + 1] = sw * aby + w * bcy;
}

/**
 * The point at `t` in 0..1 of the Bézier `b` (8 numbers, at offset `o`).
 * @param {BezierArray} b
 * @returns {[number, number]}
 */
export function bezierPoint(b, t, o = 0) {
  const out = [0, 0];
  blossomInto(b, o, t, t, t, out, 0);
  return out;
}

/**
 * Writes the halves before and after `t` of `src[so..]` to `left[lo..]` and `right[ro..]`.
 * Either output may be omitted (`null`).
 */
export function splitInto(src, so, t, left, lo, right, ro) {
  const s = 1 - t;
  const ax = s * src[so] + t * src[so + 2];
  const ay = s * src[so + 1] + t * src[so + 3];
  const bx = s * src[so + 2] + t * src[so + 4];
  const by = s * src[so + 3] + t * src[so + 5];
  const cx = s * src[so + 4] + t * src[so + 6];
  const cy = s * src[so + 5] + t * src[so + 7];
  const abx = s * ax + t * bx;
  const aby = s * ay + t * by;
  const bcx = s * bx + t * cx;
  const bcy = s * by + t * cy;
  const mx = s * abx + t * bcx;
  const my = s * aby + t * bcy;
  if (left) {
    left[lo] = src[so];
    left[lo + 1] = src[so + 1];
    left[lo + 2] = ax;
    left[lo + 3] = ay;
    left[lo + 4] = abx;
    left[lo + 5] = aby;
    left[lo + 6] = mx;
    left[lo + 7] = my;
  }
  if (right) {
    right[ro] = mx;
    right[ro + 1] = my;
    right[ro + 2] = bcx;
    right[ro + 3] = bcy;
    right[ro + 4] = cx;
    right[ro + 5] = cy;
    right[ro + 6] = src[so + 6];
    right[ro + 7] = src[so + 7];
  }
}

/**
 * The two halves of `b` before and after `t`; together they trace exactly the same curve.
 * @param {BezierArray} b
 * @returns {[number[], number[]]}
 */
export function splitBezier(b, t) {
  const left = new Array(8);
  const right = new Array(8);
  splitInto(b, 0, t, left, 0, right, 0);
  return [left, right];
}

/**
 * Writes the part of `src[so..]` between t0 and t1 to `dst[d..]`, by the polar form, so a piece cut from the
 * middle is as exact as a split and its ends equal the points at t0 and t1.
 */
export function pieceInto(src, so, t0, t1, dst, d) {
  blossomInto(src, so, t0, t0, t0, dst, d);
  blossomInto(src, so, t0, t0, t1, dst, d + 2);
  blossomInto(src, so, t0, t1, t1, dst, d + 4);
  blossomInto(src, so, t1, t1, t1, dst, d + 6);
}

/**
 * The part of `b` between t0 and t1 (both in 0..1).
 * @param {BezierArray} b
 * @returns {number[]}
 */
export function bezierPiece(b, t0, t1) {
  const out = new Array(8);
  pieceInto(b, 0, t0, t1, out, 0);
  return out;
}

/** Whether all 8 numbers of `b[o..]` are finite. */
export function isFiniteBezier(b, o = 0) {
  for (let i = 0; i < 8; i++) if (!Number.isFinite(b[o + i])) return false;
  return true;
}

/**
 * The box around the four control points, which holds the whole curve (convex hull property).
 * @returns {import('./rect.js').Rect}
 */
export function bezierControlBounds(b, o = 0) {
  const out = [0, 0, 0, 0];
  controlBoundsInto(b, o, out);
  return { minX: out[0], minY: out[1], maxX: out[2], maxY: out[3] };
}

/** Writes the control box of `b[o..]` to `out` as minX, minY, maxX, maxY. */
export function controlBoundsInto(b, o, out) {
  let minX = b[o];
  let minY = b[o + 1];
  let maxX = minX;
  let maxY = minY;
  for (let i = 2; i < 8; i += 2) {
    const x = b[o + i];
    const y = b[o + i + 1];
    minX = x < minX ? x : minX;
    minY = y < minY ? y : minY;
    maxX = x >= maxX ? x : maxX;
    maxY = y >= maxY ? y : maxY;
  }
  out[0] = minX;
  out[1] = minY;
  out[2] = maxX;
  out[3] = maxY;
}

/** Squared distance from (px, py) to the segment (ax, ay)–(bx, by); to the first end when they coincide. */
export function squaredDistanceToSegment(px, py, ax, ay, bx, by) {
  const abx = bx - ax;
  const aby = by - ay;
  const apx = px - ax;
  const apy = py - ay;
  const lengthSquared = abx * abx + aby * aby;
  let t = 0;
  if (lengthSquared > 0) {
    t = (apx * abx + apy * aby) / lengthSquared;
    if (t < 0) t = 0;
    else if (t > 1) t = 1;
  }
  const dx = apx - t * abx;
  const dy = apy - t * aby;
  return dx * dx + dy * dy;
}

/** How far the control points stray from the chord: a bound on how far the curve does. */
export function bezierFlatness(b, o = 0) {
  const ax = b[o];
  const ay = b[o + 1];
  const ex = b[o + 6];
  const ey = b[o + 7];
  const first = squaredDistanceToSegment(b[o + 2], b[o + 3], ax, ay, ex, ey);
  const second = squaredDistanceToSegment(b[o + 4], b[o + 5], ax, ay, ex, ey);
  return Math.sqrt(second >= first ? second : first);
}
