/**
 * Axis-aligned rectangles: bounding boxes, eraser reach, spatial-index queries.
 *
 * Min and max are written as Swift's `min`/`max` (`b < a ? b : a`, `b >= a ? b : a`) so NaN flows through
 * exactly as in InkwellGeometry's `Rect`.
 *
 * @typedef {{minX: number, minY: number, maxX: number, maxY: number}} Rect
 * @typedef {[number, number]} Point
 */

/** @returns {Rect} */
export function rect(minX, minY, maxX, maxY) {
  return { minX, minY, maxX, maxY };
}

/**
 * The smallest rectangle holding every point; `null` for none.
 * @param {Point[]} points
 * @returns {Rect | null}
 */
export function boundingRect(points) {
  if (points.length === 0) return null;
  const box = rect(points[0][0], points[0][1], points[0][0], points[0][1]);
  for (let i = 1; i < points.length; i++) includePoint(box, points[i][0], points[i][1]);
  return box;
}

/** Grows `box` in place to hold (x, y). */
export function includePoint(box, x, y) {
  box.minX = x < box.minX ? x : box.minX;
  box.minY = y < box.minY ? y : box.minY;
  box.maxX = x >= box.maxX ? x : box.maxX;
  box.maxY = y >= box.maxY ? y : box.maxY;
}

/** @param {Rect} a @param {Rect} b @returns {Rect} */
export function unionRect(a, b) {
  return rect(
    b.minX < a.minX ? b.minX : a.minX,
    b.minY < a.minY ? b.minY : a.minY,
    b.maxX >= a.maxX ? b.maxX : a.maxX,
    b.maxY >= a.maxY ? b.maxY : a.maxY,
  );
}

/** Grown by `amount` on every side (a stroke's half width, an eraser's radius). @returns {Rect} */
export function expandRect(box, amount) {
  return rect(box.minX - amount, box.minY - amount, box.maxX + amount, box.maxY + amount);
}

/** Whether the rectangles overlap or touch. */
export function rectsIntersect(a, b) {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

/** Whether (x, y) is inside or on the edge. */
export function rectContains(box, x, y) {
  return x >= box.minX && x <= box.maxX && y >= box.minY && y <= box.maxY;
}
