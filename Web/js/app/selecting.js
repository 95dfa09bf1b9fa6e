/**
 * What the select and lasso tools pick, against the scene's index (Swift's `StrokeIndex.select(lasso:)`
 * for the lasso). Pure: the tools ask once, at pointer-up or pointer-down, and keep the ids.
 *
 * Only strokes the board shows count; each answer lists ids sorted, so equal gestures make equal
 * selections.
 */

import { lasso, lassoSelects, strokeHit, sweptPath, unionRect } from '../geometry/index.js';
import { strokeBounds } from './export-svg.js';

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
    if (stroke.shown.length === 0) continue;
    if (lassoSelects(loop, stroke.hitCurve, stroke.pointCount === 1 ? null : stroke.shown)) hits.push(stroke.id);
  }
  return hits.sort();
}

/**
 * The strokes whose bounds (after their transform, as the board draws them) lie wholly inside `rect`.
 * @param {Scene} scene
 * @param {Rect} rect
 * @returns {string[]}
 */
export function boxHits(scene, rect) {
  if (!(rect.minX <= rect.maxX && rect.minY <= rect.maxY)) return [];
  const hits = [];
  for (const stroke of scene.near(rect)) {
    if (stroke.shown.length === 0) continue;
    const box = strokeBounds(stroke);
    if (box !== null && box.minX >= rect.minX && box.maxX <= rect.maxX && box.minY >= rect.minY && box.maxY <= rect.maxY) {
      hits.push(stroke.id);
    }
  }
  return hits.sort();
}

/**
 * The topmost stroke whose visible ink comes within `radius` of `point`: what a click picks.
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
    if (stroke.shown.length === 0) continue;
    if (strokeHit(stroke.hitCurve, stroke.width, swept, stroke.pointCount === 1 ? null : stroke.shown)) hits.push(stroke);
  }
  return hits.length === 0 ? null : scene.sort(hits)[hits.length - 1].id;
}

/**
 * The box around strokes as the board draws them: the union of their `strokeBounds`.
 * @param {Iterable<import('../model/board-drawing.js').DrawingStroke>} strokes
 * @returns {Rect | null} null for none
 */
export function selectionBounds(strokes) {
  let box = null;
  for (const stroke of strokes) {
    const bounds = strokeBounds(stroke);
    if (bounds !== null) box = box === null ? bounds : unionRect(box, bounds);
  }
  return box;
}
