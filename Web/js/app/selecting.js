/**
 * What the select and lasso tools pick, against the scene's index (Swift's `StrokeIndex.select(lasso:)`
 * for the lasso). Pure: the tools ask once, at pointer-up or pointer-down, and keep the ids.
 *
 * Only strokes the board shows count; each answer lists ids sorted, so equal gestures make equal
 * selections. A text box is its lines' box (text-hits.js): a click inside picks it, a box dragged around
 * all its corners or a loop around its corners or its middle takes it. An image is the box it fills, taken
 * the same way.
 */

import { lasso, lassoContains, lassoSelects, strokeHit, sweptPath, unionRect } from '../geometry/index.js';
import { strokeBounds } from './export-svg.js';
import { boxContains, boxInside } from './text-hits.js';
import { boundingPoints, boxCorners, layoutRect, measureLine } from './text-layout.js';

/**
 * @typedef {import('../geometry/rect.js').Rect} Rect
 * @typedef {import('./scene.js').Scene} Scene
 */

/**
 * The strokes a closed lasso through `polygon` (board coordinates) selects: most of their visible ink
 * inside it.
 * @param {Scene} scene
 * @param {[number, number][]} polygon
 * @returns {string[]}
 */
export function lassoHits(scene, polygon) {
  const loop = lasso(polygon);
  if (loop.bounds === null) return [];
  const hits = [];
  for (const stroke of scene.near(loop.bounds)) {
    // Ink the eraser's preview hides, or an empty text box: nothing to pick.
    if (stroke.shown.length === 0 || stroke.text === '') continue;
    const taken =
      stroke.corners !== undefined
        ? boxInside(stroke.corners, (point) => lassoContains(loop, point), { centre: true })
        : lassoSelects(loop, stroke.hitCurve, stroke.pointCount === 1 ? null : stroke.shown);
    if (taken) hits.push(stroke.id);
  }
  return hits.sort();
}

/**
 * The strokes whose bounds (after their transform, as the board draws them) lie wholly inside `rect`; the
 * text boxes whose corners do.
 * @param {Scene} scene
 * @param {Rect} rect
 * @returns {string[]}
 */
export function boxHits(scene, rect) {
  if (!(rect.minX <= rect.maxX && rect.minY <= rect.maxY)) return [];
  const inRect = ([x, y]) => x >= rect.minX && x <= rect.maxX && y >= rect.minY && y <= rect.maxY;
  const hits = [];
  for (const stroke of scene.near(rect)) {
    // Ink the eraser's preview hides, or an empty text box: nothing to pick.
    if (stroke.shown.length === 0 || stroke.text === '') continue;
    if (stroke.corners !== undefined) {
      if (boxInside(stroke.corners, inRect)) hits.push(stroke.id);
      continue;
    }
    const box = strokeBounds(stroke);
    if (box !== null && box.minX >= rect.minX && box.maxX <= rect.maxX && box.minY >= rect.minY && box.maxY <= rect.maxY) {
      hits.push(stroke.id);
    }
  }
  return hits.sort();
}

/**
 * The topmost stroke whose visible ink comes within `radius` of `point`, or text box with text around it:
 * what a click picks.
 * @param {Scene} scene
 * @param {[number, number]} point
 * @param {number} radius board pixels
 * @returns {string | null}
 */
export function pointHit(scene, point, radius) {
  const swept = sweptPath([point], radius);
  if (swept === null) return null;
  const hits = [];
  for (const stroke of scene.near(swept.reach)) {
    // Ink the eraser's preview hides, or an empty text box: nothing to pick.
    if (stroke.shown.length === 0 || stroke.text === '') continue;
    if (stroke.corners !== undefined) {
      if (boxContains(stroke.corners, point, radius)) hits.push(stroke);
      continue;
    }
    if (strokeHit(stroke.hitCurve, stroke.width, swept, stroke.pointCount === 1 ? null : stroke.shown)) hits.push(stroke);
  }
  return hits.length === 0 ? null : scene.sort(hits)[hits.length - 1].id;
}

/**
 * The box around strokes as the board draws them: the union of their `elementBounds`.
 * @param {Iterable<{points: [number, number][], width: number, transform: number[], text?: string}>} strokes
 *   as the drawing lists them (or the clipboard)
 * @param {import('./text-layout.js').Measure} [measure]
 * @returns {Rect | null} null for none
 */
export function selectionBounds(strokes, measure = measureLine) {
  let box = null;
  for (const stroke of strokes) {
    const bounds = elementBounds(stroke, measure);
    if (bounds !== null) box = box === null ? bounds : unionRect(box, bounds);
  }
  return box;
}

/**
 * A stroke's bounds as the board draws it (`strokeBounds`); a text box's, its measured lines' box after
 * its transform.
 * @param {{points: [number, number][], width: number, transform: number[], text?: string}} stroke
 * @param {import('./text-layout.js').Measure} [measure]
 * @returns {Rect | null}
 */
export function elementBounds(stroke, measure = measureLine) {
  if (stroke.text === undefined || stroke.points.length === 0) return strokeBounds(/** @type {any} */ (stroke));
  return boundingPoints(boxCorners(stroke.transform, layoutRect(stroke, measure)));
}
