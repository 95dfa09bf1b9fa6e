/**
 * Where a text box's lines go, the same on the canvas, in the editor and in the SVG (docs/ARCHITECTURE.md,
 * "Text boxes on the board"; Swift's `TextLayout`): lines split at newlines, line i's baseline
 * `size × (1 + 1.25 i)` below the box's corner, all starting at the corner's x, then the box's transform.
 *
 * Widths come from the browser's own font (canvas `measureText`, cached), so a box's bounds hug its ink;
 * where no canvas is at hand (Node) they are Swift's estimate, which the SVG export uses anyway.
 */

/** The family every renderer asks for, as the SVG writes it. */
export const FONT_FAMILY = 'Inkwell Sans, Helvetica, Arial, sans-serif';
/** The same family as CSS and canvas fonts want it (the first name has a space, so it is quoted). */
export const CSS_FONT_FAMILY = '"Inkwell Sans", Helvetica, Arial, sans-serif';
/** Line spacing in ems. */
export const LINE_HEIGHT = 1.25;
/** Swift's generous mean advance of a character in ems, for bounds without a font to measure. */
export const ESTIMATED_ADVANCE = 0.62;

/**
 * @typedef {import('../geometry/rect.js').Rect} Rect
 * @typedef {(line: string, size: number) => number} Measure the advance width of a line at a font size,
 *   in board pixels
 * @typedef {{text?: string, width: number, points: [number, number][], transform: number[]}} Box a text box
 *   as the drawing lists it: `width` is its font size, `points[0]` its corner
 */

/** The CSS and canvas font for a size. @param {number} size */
export function textFont(size) {
  return `${size}px ${CSS_FONT_FAMILY}`;
}

/**
 * The lines of a text. Split where Swift's `split(separator: "\n")` splits: at every newline that is its
 * own character, so not in a `\r\n` (one grapheme to Swift).
 * @param {string} text
 * @returns {string[]} at least one (possibly empty) line
 */
export function textLines(text) {
  return text.split(/(?<!\r)\n/);
}

/** The baseline of line `index` of a box whose corner is at `top`. */
export function baseline(top, size, index) {
  return top + size * (1 + LINE_HEIGHT * index);
}

/**
 * The box the text takes before its transform, as wide as its widest measured line.
 * @param {Box} box
 * @param {Measure} [measure]
 * @returns {Rect}
 */
export function layoutRect(box, measure = measureLine) {
  const [x, y] = box.points[0];
  const size = box.width;
  const lines = textLines(box.text ?? '');
  let widest = 0;
  for (const line of lines) if (line !== '') widest = Math.max(widest, measure(line, size));
  return { minX: x, minY: y, maxX: x + widest, maxY: y + size * LINE_HEIGHT * lines.length };
}

/**
 * Swift's `TextLayout.estimatedBounds`: what its SVG export frames the drawing with, so the page's SVG
 * is the same text. Operations in Swift's order, so the doubles agree.
 * @param {Box} box
 * @returns {Rect}
 */
export function estimatedRect(box) {
  const [x, y] = box.points[0];
  const size = box.width;
  const lines = textLines(box.text ?? '');
  let widest = 0;
  for (const line of lines) widest = Math.max(widest, scalarCount(line));
  return { minX: x, minY: y, maxX: x + widest * size * ESTIMATED_ADVANCE, maxY: y + size * LINE_HEIGHT * Math.max(lines.length, 1) };
}

/**
 * The corners of `rect` (box coordinates) on the board, clockwise from the top left: the box as drawn.
 * @param {number[]} t the box's transform
 * @param {Rect} rect
 * @returns {[number, number][]}
 */
export function boxCorners(t, rect) {
  const apply = (x, y) => /** @type {[number, number]} */ ([t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5]]);
  return [apply(rect.minX, rect.minY), apply(rect.maxX, rect.minY), apply(rect.maxX, rect.maxY), apply(rect.minX, rect.maxY)];
}

/**
 * The smallest rectangle holding the points, as Swift's `Rect(bounding:)` (its min and max).
 * @param {[number, number][]} points at least one
 * @returns {Rect}
 */
export function boundingPoints(points) {
  let [minX, minY] = points[0];
  let maxX = minX;
  let maxY = minY;
  for (const [x, y] of points.slice(1)) {
    minX = x < minX ? x : minX;
    minY = y < minY ? y : minY;
    maxX = x >= maxX ? x : maxX;
    maxY = y >= maxY ? y : maxY;
  }
  return { minX, minY, maxX, maxY };
}

/** The number of Unicode scalars in a string. @param {string} text */
export function scalarCount(text) {
  return Array.from(text).length;
}

/**
 * The font's ascent and descent in ems (the canvas's font box), for placing a text field's lines on the
 * layout's baselines: a CSS line box puts its baseline half the spare leading plus the ascent down.
 * @returns {{ascent: number, descent: number}}
 */
export function fontMetrics() {
  if (metrics !== null) return metrics;
  const ctx = measuringContext();
  if (ctx !== null) useFont(ctx, METRICS_SIZE);
  const found = ctx?.measureText('Hg');
  metrics =
    found !== undefined && Number.isFinite(found.fontBoundingBoxAscent) && Number.isFinite(found.fontBoundingBoxDescent)
      ? { ascent: found.fontBoundingBoxAscent / METRICS_SIZE, descent: found.fontBoundingBoxDescent / METRICS_SIZE }
      : { ascent: 1, descent: LINE_HEIGHT - 1 };
  return metrics;
}

/**
 * The advance width of one line at `size`, measured by the browser's font and remembered; Swift's estimate
 * where there is no canvas.
 * @type {Measure}
 */
export function measureLine(line, size) {
  const key = `${size}\u0000${line}`;
  let width = widths.get(key);
  if (width !== undefined) return width;
  const ctx = measuringContext();
  if (ctx === null) {
    width = scalarCount(line) * size * ESTIMATED_ADVANCE;
  } else {
    useFont(ctx, size);
    width = ctx.measureText(line).width;
  }
  // Enough for every line on screen many times over; past it, start again rather than track use.
  if (widths.size >= MAXIMUM_WIDTHS) widths.clear();
  widths.set(key, width);
  return width;
}

const MAXIMUM_WIDTHS = 20_000;
const METRICS_SIZE = 100;
/** @type {Map<string, number>} */
const widths = new Map();
/** The size the measuring context's font is set to: setting a font costs a parse. */
let fontSize = 0;
/** @type {{ascent: number, descent: number} | null} */
let metrics = null;
/** @type {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null | undefined} */
let context;

function measuringContext() {
  if (context !== undefined) return context;
  context = null;
  try {
    if (typeof OffscreenCanvas === 'function') context = new OffscreenCanvas(1, 1).getContext('2d');
    else if (typeof document === 'object') context = document.createElement('canvas').getContext('2d');
  } catch {
    context = null;
  }
  return context;
}

function useFont(ctx, size) {
  if (size === fontSize) return;
  ctx.font = textFont(size);
  fontSize = size;
}
