/**
 * The selection box's handles and what dragging them does: four corner handles that scale about the
 * opposite corner, one above the top edge that rotates about the centre, and the inside that moves.
 * Pure geometry in board coordinates; sizes are given in screen pixels and divided by the view's scale, so
 * the handles look the same at any zoom.
 */

import { rotationAbout, scalingAbout, translation } from '../model/selection-edits.js';

/** The side of a corner handle, in screen pixels. */
export const HANDLE_PIXELS = 9;
/** How far above the top edge the rotate handle sits, in screen pixels. */
export const ROTATE_PIXELS = 26;
/** How far from a handle's centre a press still takes it, in screen pixels (fingers are wide). */
const GRAB_PIXELS = 10;
/** Rotation steps with Shift held. */
const SNAP_ANGLE = Math.PI / 12;
/** A scale is kept at least this big, so a drag through the pivot never makes a stroke vanish. */
const MINIMUM_SCALE = 0.01;

/**
 * @typedef {import('../geometry/rect.js').Rect} Rect
 * @typedef {import('../model/selection-edits.js').Matrix} Matrix
 * @typedef {'move' | 'rotate' | 'nw' | 'ne' | 'sw' | 'se'} Grab what a press on the box takes
 */

/** The corners by name, each with the opposite one (the pivot of its scaling). */
const CORNERS = Object.freeze({
  nw: { at: (b) => [b.minX, b.minY], pivot: (b) => [b.maxX, b.maxY] },
  ne: { at: (b) => [b.maxX, b.minY], pivot: (b) => [b.minX, b.maxY] },
  sw: { at: (b) => [b.minX, b.maxY], pivot: (b) => [b.maxX, b.minY] },
  se: { at: (b) => [b.maxX, b.maxY], pivot: (b) => [b.minX, b.minY] },
});

/** The CSS cursor over each part of the box. */
export const GRAB_CURSORS = Object.freeze({
  move: 'move',
  rotate: 'grab',
  nw: 'nwse-resize',
  se: 'nwse-resize',
  ne: 'nesw-resize',
  sw: 'nesw-resize',
});

/**
 * Where the handles are drawn.
 * @param {Rect} bounds
 * @param {number} scale the view's CSS pixels per board pixel
 * @returns {{corners: [string, [number, number]][], rotate: [number, number], size: number}} `size` is a
 *   corner handle's side in board pixels
 */
export function handles(bounds, scale) {
  return {
    corners: Object.entries(CORNERS).map(([name, corner]) => [name, corner.at(bounds)]),
    rotate: [(bounds.minX + bounds.maxX) / 2, bounds.minY - ROTATE_PIXELS / scale],
    size: HANDLE_PIXELS / scale,
  };
}

/**
 * What a press at `point` takes: a handle, the inside of the box (a move), or nothing.
 * @param {Rect} bounds
 * @param {[number, number]} point
 * @param {number} scale
 * @returns {Grab | null}
 */
export function grabAt(bounds, [x, y], scale) {
  const reach = GRAB_PIXELS / scale;
  const distance = ([hx, hy]) => Math.max(Math.abs(x - hx), Math.abs(y - hy));
  const { corners, rotate } = handles(bounds, scale);
  if (distance(rotate) <= reach) return 'rotate';
  // The nearest corner: on a thin box (a straight line) two are within reach.
  let nearest = null;
  for (const [name, at] of corners) {
    if (distance(at) <= reach && (nearest === null || distance(at) < nearest.distance)) nearest = { name, distance: distance(at) };
  }
  if (nearest !== null) return /** @type {Grab} */ (nearest.name);
  if (x >= bounds.minX && x <= bounds.maxX && y >= bounds.minY && y <= bounds.maxY) return 'move';
  return null;
}

/**
 * The matrix a drag of `grab` from `from` to `to` (board coordinates) applies to the selection.
 * @param {Grab} grab
 * @param {Rect} bounds the box when the drag began
 * @param {[number, number]} from
 * @param {[number, number]} to
 * @param {{shift?: boolean}} [options] Shift keeps a scaling's aspect ratio and snaps a rotation to 15°
 * @returns {Matrix}
 */
export function dragMatrix(grab, bounds, from, to, { shift = false } = {}) {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  if (grab === 'move') return translation(dx, dy);
  if (grab === 'rotate') {
    const centre = [(bounds.minX + bounds.maxX) / 2, (bounds.minY + bounds.maxY) / 2];
    let angle = Math.atan2(to[1] - centre[1], to[0] - centre[0]) - Math.atan2(from[1] - centre[1], from[0] - centre[0]);
    if (shift) angle = Math.round(angle / SNAP_ANGLE) * SNAP_ANGLE;
    return rotationAbout(angle, centre);
  }
  const corner = CORNERS[grab];
  const [cx, cy] = corner.at(bounds);
  const pivot = corner.pivot(bounds);
  let sx = factor(cx + dx - pivot[0], cx - pivot[0]);
  let sy = factor(cy + dy - pivot[1], cy - pivot[1]);
  if (shift) {
    // The larger stretch wins, on both axes, each keeping its own side of the pivot.
    const s = Math.max(Math.abs(sx), Math.abs(sy));
    sx = Math.sign(sx) * s;
    sy = Math.sign(sy) * s;
  }
  return scalingAbout(sx, sy, pivot);
}

/** A scale factor from the corner's new and old distance to the pivot: never 0, never infinite. */
function factor(now, before) {
  if (!(Math.abs(before) > 0)) return 1;
  const s = now / before;
  if (!Number.isFinite(s)) return 1;
  return Math.abs(s) < MINIMUM_SCALE ? (s < 0 ? -MINIMUM_SCALE : MINIMUM_SCALE) : s;
}

/**
 * Where `matrix` takes the corners of `bounds`, clockwise from the top left: the outline drawn while a
 * drag is under way.
 * @param {Rect} bounds
 * @param {Matrix} m
 * @returns {[number, number][]}
 */
export function transformedCorners(bounds, m) {
  const corners = [[bounds.minX, bounds.minY], [bounds.maxX, bounds.minY], [bounds.maxX, bounds.maxY], [bounds.minX, bounds.maxY]];
  return corners.map(([x, y]) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]);
}
