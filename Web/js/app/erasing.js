/**
 * What the erasers cut, against the scene's index (Swift's `StrokeIndex.partialErase` and `strokeErase`).
 *
 * Both are asked once per pointer move with the move's path; the tools add up the answers and commit them
 * as one change at pointer-up, so one drag is one undo step. A text box cannot be cut (the board ignores an
 * erase aimed at one), so the partial eraser passes over it; the stroke eraser takes it whole when its
 * circle touches the box's lines. An image likewise: passed over, or taken whole where the circle touches
 * the box it fills.
 */

import { cutCurve, intervalUnion, strokeHit, sweptPath } from '../geometry/index.js';
import { boxTouched } from './text-hits.js';

/**
 * The visible parameter intervals an eraser circle of `radius` moved along `path` cuts, per stroke.
 * @param {import('./scene.js').Scene} scene
 * @param {[number, number][]} path board coordinates; one point for a tap
 * @param {number} radius board pixels
 * @returns {{cuts: Map<string, [number, number][]>, reach: import('../geometry/rect.js').Rect | null}}
 */
export function partialCuts(scene, path, radius) {
  const cuts = new Map();
  const swept = sweptPath(path, radius);
  if (swept === null) return { cuts, reach: null };
  for (const stroke of scene.near(swept.reach)) {
    if (stroke.shown.length === 0 || stroke.hitCurve === null) continue;
    const cut = cutCurve(stroke.hitCurve, swept);
    if (cut.length === 0) continue;
    const visible = stroke.pointCount === 1 ? cut : overlap(cut, stroke.shown);
    if (visible.length > 0) cuts.set(stroke.id, visible);
  }
  return { cuts, reach: swept.reach };
}

/**
 * The visible strokes whose ink the eraser touches along `path`, and the text boxes with text and the
 * images it touches.
 * @param {import('./scene.js').Scene} scene
 * @param {[number, number][]} path
 * @param {number} radius
 * @returns {string[]}
 */
export function strokeHits(scene, path, radius) {
  const swept = sweptPath(path, radius);
  if (swept === null) return [];
  const hits = [];
  for (const stroke of scene.near(swept.reach)) {
    if (stroke.shown.length === 0) continue;
    if (stroke.corners !== undefined) {
      if (stroke.text !== '' && boxTouched(stroke.corners, path, radius)) hits.push(stroke.id);
      continue;
    }
    if (strokeHit(stroke.hitCurve, stroke.width, swept, stroke.pointCount === 1 ? null : stroke.shown)) {
      hits.push(stroke.id);
    }
  }
  return hits;
}

/**
 * The erase operations for what a drag cut, each stroke's cuts limited to what the board still shows.
 * @param {Map<string, [number, number][]>} cuts
 * @param {import('../model/board.js').Board} board
 * @returns {object[]}
 */
export function eraseOperations(cuts, board) {
  const operations = [];
  for (const id of [...cuts.keys()].sort()) {
    const stroke = board.stroke(id);
    if (stroke === null || stroke.text !== undefined || stroke.image !== undefined) continue;
    const union = intervalUnion(cuts.get(id));
    const intervals = stroke.points.length === 1 ? union : overlap(union, stroke.pieces);
    if (intervals.length > 0) operations.push({ op: 'erase', stroke: id, intervals });
  }
  return operations;
}

/**
 * The operations that take whole strokes away (the stroke eraser).
 * @param {Iterable<string>} ids
 */
export function deleteOperations(ids) {
  return [...new Set(ids)].sort().map((id) => ({ op: 'set', stroke: id, attribute: 'deleted', value: true }));
}

/**
 * The parts of `intervals` inside `pieces` (both sorted and disjoint).
 * @param {[number, number][]} intervals
 * @param {[number, number][]} pieces
 * @returns {[number, number][]}
 */
export function overlap(intervals, pieces) {
  const result = [];
  let p = 0;
  for (const [a, b] of intervals) {
    while (p < pieces.length && pieces[p][1] <= a) p++;
    for (let q = p; q < pieces.length && pieces[q][0] < b; q++) {
      const lower = Math.max(a, pieces[q][0]);
      const upper = Math.min(b, pieces[q][1]);
      if (lower < upper) result.push([lower, upper]);
    }
  }
  return result;
}
