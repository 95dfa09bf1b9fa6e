/**
 * The view onto the unbounded board: which board point is at the screen's top-left and how many CSS
 * pixels one board pixel covers. `screen = (board − origin) · scale`.
 *
 * Pure state and math; viewport-input.js turns wheel, pinch and space-drag into calls here.
 */

/** Zoom limits: far enough out to see a large board whole, far enough in for detail. */
export const MINIMUM_SCALE = 1 / 64;
/** See MINIMUM_SCALE. */
export const MAXIMUM_SCALE = 32;

/** The pan and zoom of the view. */
export class Viewport {
  /**
   * @param {{originX?: number, originY?: number, scale?: number, width?: number, height?: number}} [state]
   *   width and height are the surface's size in CSS pixels
   */
  constructor({ originX = 0, originY = 0, scale = 1, width = 0, height = 0 } = {}) {
    this.originX = originX;
    this.originY = originY;
    this.scale = clampScale(scale);
    this.width = width;
    this.height = height;
    /** Bumped on every change, so a renderer can tell cheaply whether the view moved. */
    this.version = 0;
  }

  /** The screen point (CSS px from the surface's top-left) of a board point. @returns {[number, number]} */
  toScreen(x, y) {
    return [(x - this.originX) * this.scale, (y - this.originY) * this.scale];
  }

  /** The board point under a screen point. @returns {[number, number]} */
  toBoard(sx, sy) {
    return [this.originX + sx / this.scale, this.originY + sy / this.scale];
  }

  /** The board rectangle on screen. @returns {import('../geometry/rect.js').Rect} */
  visibleRect() {
    return {
      minX: this.originX,
      minY: this.originY,
      maxX: this.originX + this.width / this.scale,
      maxY: this.originY + this.height / this.scale,
    };
  }

  /** Moves the view with the hand: content follows a drag of (dx, dy) screen pixels. */
  panBy(dx, dy) {
    if (!Number.isFinite(dx) || !Number.isFinite(dy) || (dx === 0 && dy === 0)) return;
    this.originX -= dx / this.scale;
    this.originY -= dy / this.scale;
    this.version++;
  }

  /**
   * Zooms by `factor` keeping the board point under (sx, sy) where it is (the cursor, the pinch centre).
   * The scale stays within MINIMUM_SCALE…MAXIMUM_SCALE.
   */
  zoomAt(factor, sx, sy) {
    if (!(factor > 0) || !Number.isFinite(factor)) return;
    this.setScale(this.scale * factor, sx, sy);
  }

  /** Sets the scale, keeping the board point under (sx, sy) in place. */
  setScale(scale, sx = this.width / 2, sy = this.height / 2) {
    const next = clampScale(scale);
    if (next === this.scale) return;
    const [bx, by] = this.toBoard(sx, sy);
    this.scale = next;
    this.originX = bx - sx / next;
    this.originY = by - sy / next;
    this.version++;
  }

  /** Centres the board point (x, y) on screen. */
  centreOn(x, y) {
    this.originX = x - this.width / 2 / this.scale;
    this.originY = y - this.height / 2 / this.scale;
    this.version++;
  }

  /**
   * Shows a board rectangle whole, centred, with `margin` screen pixels around it (at most 100 %).
   * @param {import('../geometry/rect.js').Rect} rect
   */
  fit(rect, margin = 32) {
    const w = rect.maxX - rect.minX;
    const h = rect.maxY - rect.minY;
    const room = [Math.max(1, this.width - 2 * margin), Math.max(1, this.height - 2 * margin)];
    const scale = Math.min(1, w > 0 ? room[0] / w : Infinity, h > 0 ? room[1] / h : Infinity);
    this.scale = clampScale(scale);
    this.centreOn((rect.minX + rect.maxX) / 2, (rect.minY + rect.maxY) / 2);
  }

  /** The surface was resized: the top-left board point stays put. */
  resize(width, height) {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.version++;
  }

  /** What to keep to restore this view later. */
  toJSON() {
    return { originX: this.originX, originY: this.originY, scale: this.scale };
  }
}

/**
 * A scale within the limits; a non-finite or non-positive scale becomes 1.
 * @param {number} scale
 */
export function clampScale(scale) {
  if (!(scale > 0) || !Number.isFinite(scale)) return 1;
  return Math.min(MAXIMUM_SCALE, Math.max(MINIMUM_SCALE, scale));
}

/**
 * The zoom factor for a wheel event's vertical delta: smooth for trackpads (small deltas), one step of
 * about 10 % per mouse-wheel notch (deltaY ≈ 100 in pixel mode).
 * @param {number} deltaY
 * @param {number} deltaMode 0 pixels, 1 lines, 2 pages
 */
export function wheelZoomFactor(deltaY, deltaMode = 0) {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  const clamped = Math.max(-200, Math.min(200, pixels));
  return Math.exp(-clamped * 0.001);
}

/**
 * Where two touches moved the view: the pan of their midpoint and the zoom of their distance.
 * @param {[number, number][]} before two screen points
 * @param {[number, number][]} after the same two touches now
 * @returns {{dx: number, dy: number, factor: number, centre: [number, number]}}
 */
export function pinchStep(before, after) {
  const mid = (points) => [(points[0][0] + points[1][0]) / 2, (points[0][1] + points[1][1]) / 2];
  const distance = (points) => Math.hypot(points[1][0] - points[0][0], points[1][1] - points[0][1]);
  const [ax, ay] = mid(before);
  const [bx, by] = mid(after);
  const d0 = distance(before);
  const d1 = distance(after);
  return { dx: bx - ax, dy: by - ay, factor: d0 > 0 && d1 > 0 ? d1 / d0 : 1, centre: [bx, by] };
}
