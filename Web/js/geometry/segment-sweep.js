/**
 * Finds which parameters of one Bézier segment lie in an eraser's swept area (Swift's `SegmentSweep`).
 *
 * A piece of the curve lies in the disc around its control box's centre that holds its four control points,
 * so the distance from the eraser path varies over the piece by at most that disc's radius: the piece is
 * wholly in, wholly out, or halved again. Pieces still undecided at `LEAF_RADIUS` are settled by the exact
 * distance at their ends, and a boundary between them is found by bisection. The steps are Swift's, in the
 * same order, so the cut ends agree to the last bit; the state lives in module scratch buffers so a sweep
 * allocates nothing (JavaScript runs one sweep at a time).
 */

import { blossomInto, splitInto } from './bezier.js';
import { segmentsNear, distanceToSegments, pathSegmentCount } from './eraser-path.js';

/** Below this disc radius (px) a piece is settled by its ends. */
export const LEAF_RADIUS = 0.02;
/** A guard against endless halving of absurd coordinates. */
export const MAXIMUM_DEPTH = 40;
/** Bisection stops when the bracket is this narrow in segment parameter. */
export const BISECTION_WIDTH = 1e-12;

/** Pieces by depth: the piece at depth d is at 8 * d. */
const stack = new Float64Array(8 * (MAXIMUM_DEPTH + 2));
const point = new Float64Array(2);
let nearby = new Int32Array(16);
let nearbyCount = 0;
let ranges = new Float64Array(32);
let rangeCount = 0;
let path = null;
let segments = null;
let segmentOffset = 0;
let stopsAtFirst = false;

/**
 * Sweeps the part `lower..upper` of the segment at `curveSegments[offset..]`, whose Bézier is
 * `piece[pieceOffset..]` (the segment itself for 0..1) with control box (minX, minY, maxX, maxY). Returns
 * how many covered ranges were found (0 when no path segment is near the box); read them with
 * `coveredLower`/`coveredUpper`. With `firstOnly`, stops at the first covered range.
 * @param {import('./eraser-path.js').SweptPath} swept
 */
export function sweepSegment(
  swept, curveSegments, offset, piece, pieceOffset, lower, upper, minX, minY, maxX, maxY, firstOnly,
) {
  const needed = pathSegmentCount(swept);
  if (nearby.length < needed) nearby = new Int32Array(Math.max(needed, 2 * nearby.length));
  nearbyCount = segmentsNear(swept, minX, minY, maxX, maxY, nearby);
  rangeCount = 0;
  if (nearbyCount === 0) return 0;
  path = swept;
  segments = curveSegments;
  segmentOffset = offset;
  stopsAtFirst = firstOnly;
  for (let k = 0; k < 8; k++) stack[k] = piece[pieceOffset + k];
  sweep(0, lower, upper);
  path = null;
  segments = null;
  return rangeCount;
}

/** The lower end of covered range `i` of the last sweep, in segment parameter. */
export function coveredLower(i) {
  return ranges[2 * i];
}

/** The upper end of covered range `i` of the last sweep, in segment parameter. */
export function coveredUpper(i) {
  return ranges[2 * i + 1];
}

function sweep(depth, lower, upper) {
  if (stopsAtFirst && rangeCount > 0) return;
  const o = 8 * depth;
  const x0 = stack[o];
  const y0 = stack[o + 1];
  const x1 = stack[o + 2];
  const y1 = stack[o + 3];
  const x2 = stack[o + 4];
  const y2 = stack[o + 5];
  const x3 = stack[o + 6];
  const y3 = stack[o + 7];
  let minX = x0;
  let minY = y0;
  let maxX = x0;
  let maxY = y0;
  minX = x1 < minX ? x1 : minX;
  minY = y1 < minY ? y1 : minY;
  maxX = x1 >= maxX ? x1 : maxX;
  maxY = y1 >= maxY ? y1 : maxY;
  minX = x2 < minX ? x2 : minX;
  minY = y2 < minY ? y2 : minY;
  maxX = x2 >= maxX ? x2 : maxX;
  maxY = y2 >= maxY ? y2 : maxY;
  minX = x3 < minX ? x3 : minX;
  minY = y3 < minY ? y3 : minY;
  maxX = x3 >= maxX ? x3 : maxX;
  maxY = y3 >= maxY ? y3 : maxY;
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const d0 = (x0 - cx) * (x0 - cx) + (y0 - cy) * (y0 - cy);
  const d1 = (x1 - cx) * (x1 - cx) + (y1 - cy) * (y1 - cy);
  const d2 = (x2 - cx) * (x2 - cx) + (y2 - cy) * (y2 - cy);
  const d3 = (x3 - cx) * (x3 - cx) + (y3 - cy) * (y3 - cy);
  const m01 = d1 >= d0 ? d1 : d0;
  const m23 = d3 >= d2 ? d3 : d2;
  const spread = Math.sqrt(m23 >= m01 ? m23 : m01);
  const distance = distanceToSegments(path, cx, cy, nearby, nearbyCount);
  if (!Number.isFinite(distance) || !Number.isFinite(spread)) return;
  const radius = path.radius;
  if (distance - spread > radius) return;
  if (distance + spread <= radius) {
    add(lower, upper);
    return;
  }
  if (spread <= LEAF_RADIUS || depth >= MAXIMUM_DEPTH) {
    settle(lower, upper);
    return;
  }
  const middle = (lower + upper) / 2;
  splitInto(stack, o, 0.5, stack, o + 8, null, 0);
  sweep(depth + 1, lower, middle);
  splitInto(stack, o, 0.5, null, 0, stack, o + 8);
  sweep(depth + 1, middle, upper);
}

/** Whether the segment's point at `t` is in the swept area. */
function isCovered(t) {
  blossomInto(segments, segmentOffset, t, t, t, point, 0);
  return distanceToSegments(path, point[0], point[1], nearby, nearbyCount) <= path.radius;
}

/** Decides a tiny undecided piece from its two ends, bisecting when they disagree. */
function settle(lower, upper) {
  const first = isCovered(lower);
  const second = isCovered(upper);
  if (first && second) add(lower, upper);
  else if (first) add(lower, boundary(lower, upper, false));
  else if (second) add(boundary(upper, lower, true), upper);
}

/** Narrows a bracket around the swept area's edge; returns its inside end or its outside end. */
function boundary(inside, outside, wantInside) {
  let steps = 0;
  while (Math.abs(outside - inside) > BISECTION_WIDTH && steps < 64) {
    const middle = (inside + outside) / 2;
    if (isCovered(middle)) inside = middle;
    else outside = middle;
    steps += 1;
  }
  return wantInside ? inside : outside;
}

/** Adds a covered range, merging it with the last one when they touch (ranges come in increasing order). */
function add(lower, upper) {
  if (rangeCount > 0 && lower <= ranges[2 * rangeCount - 1]) {
    const last = ranges[2 * rangeCount - 1];
    ranges[2 * rangeCount - 1] = upper >= last ? upper : last;
    return;
  }
  if (ranges.length < 2 * rangeCount + 2) {
    const grown = new Float64Array(2 * ranges.length);
    grown.set(ranges);
    ranges = grown;
  }
  ranges[2 * rangeCount] = lower;
  ranges[2 * rangeCount + 1] = upper;
  rangeCount += 1;
}
