/**
 * What a board shows as SVG, the same text Swift's `SVGExporter` writes (Sources/InkwellBoard/Export):
 * visible strokes bottom to top, each visible piece as a smooth path, a dot as a circle, a text box as
 * text (svg-text.js), an image as its bytes or a grey box (svg-image.js), in its current colour, width and
 * transform; filled ink has, before its path, a closed path through all its points painted with its fill.
 */

import { curveBeziers, smoothCurve } from '../geometry/index.js';
import { colourHex } from './colour.js';
import { imageElement } from './svg-image.js';
import { textElement } from './svg-text.js';
import { boundingPoints, boxCorners, estimatedRect } from './text-layout.js';

/**
 * @typedef {import('../model/board-drawing.js').DrawingStroke} DrawingStroke
 * @typedef {{margin?: number, background?: number | null, decimals?: number,
 *   imageBytes?: (image: import('../model/board-image.js').BoardImage) => Uint8Array | null}} SVGOptions
 *   margin around the drawing in board pixels (16), a background colour (none), decimals kept (2), and
 *   images' bytes where they are at hand (none: grey boxes)
 */

/**
 * The SVG document for what the strokes show.
 * @param {DrawingStroke[]} strokes bottom to top, as `Board.strokes()` gives them
 * @param {SVGOptions} [options]
 * @returns {string}
 * - Complexity: O(visible points).
 */
export function boardSVG(strokes, { margin = 16, background = null, decimals = 2, imageBytes = () => null } = {}) {
  const number = (value) => formatNumber(value, decimals);
  let bounds = null;
  for (const stroke of strokes) {
    const box = strokeBounds(stroke);
    if (box === null) continue;
    bounds = bounds === null ? box : union(bounds, box);
  }
  bounds ??= { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  const view = { minX: bounds.minX - margin, minY: bounds.minY - margin, maxX: bounds.maxX + margin, maxY: bounds.maxY + margin };
  const width = view.maxX - view.minX;
  const height = view.maxY - view.minY;
  let svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${number(view.minX)} ${number(view.minY)} ` +
    `${number(width)} ${number(height)}" width="${number(width)}" height="${number(height)}">\n`;
  if (background !== null) {
    svg +=
      `<rect x="${number(view.minX)}" y="${number(view.minY)}" width="${number(width)}" ` +
      `height="${number(height)}"${paint('fill', background, number)}/>\n`;
  }
  svg += '<g fill="none" stroke-linecap="round" stroke-linejoin="round">\n';
  for (const stroke of strokes) svg += strokeElement(stroke, number, imageBytes);
  svg += '</g>\n</svg>\n';
  return svg;
}

/** One stroke: a path with a subpath per visible piece, or a circle for a dot; or a text box, or an image. */
function strokeElement(stroke, number, imageBytes) {
  const width = stroke.width * averagePressure(stroke.pressures);
  const t = stroke.transform;
  const identity = t[0] === 1 && t[1] === 0 && t[2] === 0 && t[3] === 1 && t[4] === 0 && t[5] === 0;
  const transform = identity ? '' : ` transform="matrix(${t.map(number).join(' ')})"`;
  if (stroke.text !== undefined) return textElement(stroke, number, paint('fill', stroke.colour, number), transform);
  if (stroke.image !== undefined) return imageElement(stroke, number, transform, imageBytes(stroke.image) ?? null);
  const id = ` data-stroke="${stroke.id}"`;
  if (stroke.points.length === 1) {
    const [x, y] = stroke.points[0];
    return `<circle${id} cx="${number(x)}" cy="${number(y)}" r="${number(width / 2)}"${paint('fill', stroke.colour, number)}${transform}/>\n`;
  }
  const curve = smoothCurve(stroke.points);
  const pair = (x, y) => `${number(x)} ${number(y)}`;
  let filled = '';
  if (stroke.fill !== undefined && stroke.points.length > 2) {
    // The whole outline, closed, whatever is erased of the ink: erasing cuts the line, not the paint.
    let outline = `M${pair(stroke.points[0][0], stroke.points[0][1])}`;
    for (const b of curveBeziers(curve, [0, stroke.points.length - 1])) outline += `C${pair(b[2], b[3])} ${pair(b[4], b[5])} ${pair(b[6], b[7])}`;
    filled = `<path${id} d="${outline}Z"${paint('fill', stroke.fill, number)}${transform}/>\n`;
  }
  let path = '';
  for (const piece of stroke.pieces) {
    const beziers = curveBeziers(curve, piece);
    if (beziers.length === 0) continue;
    path += `M${pair(beziers[0][0], beziers[0][1])}`;
    for (const b of beziers) path += `C${pair(b[2], b[3])} ${pair(b[4], b[5])} ${pair(b[6], b[7])}`;
  }
  return `${filled}<path${id} d="${path}"${paint('stroke', stroke.colour, number)} stroke-width="${number(width)}"${transform}/>\n`;
}

/** SVG has no variable width: a stroke with pressure is drawn at its mean pressure (summed as `Float`). */
export function averagePressure(pressures) {
  if (pressures === null || pressures === undefined || pressures.length === 0) return 1;
  let sum = 0;
  for (const p of pressures) sum = Math.fround(sum + p);
  return sum / pressures.length;
}

function paint(property, colour, number) {
  const alpha = colour & 0xff;
  const opaque = colourHex(((colour & 0xffffff00) | 0xff) >>> 0);
  const opacity = alpha === 255 ? '' : ` ${property}-opacity="${number(alpha / 255)}"`;
  return ` ${property}="${opaque}"${opacity}`;
}

/**
 * The stroke's bounds after its transform, grown by half its width: Swift's `DrawingStroke.bounds`. A text
 * box's are its estimated layout's corners after its transform, as Swift's (no font to measure there);
 * what the page draws and selects is measured (selecting.js `elementBounds`). An image's are the corners of
 * the box it fills after its transform.
 * @param {DrawingStroke} stroke
 */
export function strokeBounds(stroke) {
  if (stroke.points.length === 0) return null;
  const t = stroke.transform;
  if (stroke.image !== undefined) {
    // Swift's corner order, as for a text box.
    const [x, y] = stroke.points[0];
    const { width, height } = stroke.image;
    const corners = [[x, y], [x + width, y], [x, y + height], [x + width, y + height]];
    return boundingPoints(corners.map(([px, py]) => [t[0] * px + t[2] * py + t[4], t[1] * px + t[3] * py + t[5]]));
  }
  if (stroke.text !== undefined) {
    // Swift's corner order (min/max of equal values may differ in the sign of a zero).
    const [topLeft, topRight, bottomRight, bottomLeft] = boxCorners(t, estimatedRect(stroke));
    return boundingPoints([topLeft, topRight, bottomLeft, bottomRight]);
  }
  let box = null;
  for (const [x, y] of stroke.points) {
    const px = t[0] * x + t[2] * y + t[4];
    const py = t[1] * x + t[3] * y + t[5];
    box = box === null ? { minX: px, minY: py, maxX: px, maxY: py } : union(box, { minX: px, minY: py, maxX: px, maxY: py });
  }
  const scale = Math.max(Math.sqrt(t[0] * t[0] + t[1] * t[1]), Math.sqrt(t[2] * t[2] + t[3] * t[3]));
  const grow = (stroke.width / 2) * Math.max(1, scale);
  return { minX: box.minX - grow, minY: box.minY - grow, maxX: box.maxX + grow, maxY: box.maxY + grow };
}

/** Swift's `Rect.union` (NaN-blind min/max, as `Swift.min` and `Swift.max`). */
function union(a, b) {
  return {
    minX: b.minX < a.minX ? b.minX : a.minX,
    minY: b.minY < a.minY ? b.minY : a.minY,
    maxX: b.maxX >= a.maxX ? b.maxX : a.maxX,
    maxY: b.maxY >= a.maxY ? b.maxY : a.maxY,
  };
}

/**
 * `String(format: "%.<d>f")` with trailing zeros trimmed: `1.50` → `1.5`, `2.00` → `2`, `-0` → `0`.
 *
 * `toFixed` rounds exact ties (1.125 → "1.13") up, while C's printf rounds them to even ("1.12"), so ties are
 * found exactly (a tie at d decimals is a double whose value × 2^(d+1) is an odd integer) and rounded to even.
 * @param {number} value
 * @param {number} decimals
 */
export function formatNumber(value, decimals = 2) {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  let text = fixed(value, decimals);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  return text === '-0' ? '0' : text;
}

function fixed(value, decimals) {
  const magnitude = Math.abs(value);
  const doubled = magnitude * 2 ** (decimals + 1);
  if (Number.isInteger(doubled) && doubled % 2 === 1 && doubled * 5 ** decimals < Number.MAX_SAFE_INTEGER) {
    // An exact tie: floor(|v| · 10^d) is (doubled · 5^d − 1) / 2; printf keeps it when even.
    const floor = (doubled * 5 ** decimals - 1) / 2;
    const chosen = floor % 2 === 0 ? floor : floor + 1;
    const digits = String(chosen).padStart(decimals + 1, '0');
    const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
    return (value < 0 || Object.is(value, -0) ? '-' : '') + text;
  }
  const text = value.toFixed(decimals);
  // toFixed drops the sign of a negative number that rounds to zero; printf keeps it ("-0.00").
  return value < 0 && !text.startsWith('-') ? `-${text}` : text;
}
