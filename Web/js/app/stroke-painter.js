/**
 * Paints strokes on a 2D canvas context: every visible piece as cubic Béziers (the same curves the SVG
 * export writes), round caps and joins, width following pen pressure where the pen gave it
 * (pressure-outline.js), and a fill beneath the ink where it has one (its whole curve, closed).
 *
 * Consecutive strokes of the same colour and width without pressure go into one path and one `stroke()`
 * call: on a big board most strokes share a pen, and the per-call cost dominates. Zoomed far out, where a
 * stroke's segments are under a device pixel, it is drawn as a polyline through fewer of its points: the
 * curve's detail could not show, and rasterising it is most of the cost of a zoomed-out board. Ink with
 * pressure is filled as an outline of discs and bands (pressure-outline.js), with fewer samples as it
 * shrinks on screen; where it is thinner than THIN_PIXELS its changing width could not show, and it is
 * drawn as a line of its mean width, batched like ink without pressure.
 */

import { pieceInto } from '../geometry/bezier.js';
import { forEachRange } from '../geometry/curve-pieces.js';
import { paintImage } from './image-painter.js';
import { STEPS, meanPressure, pressureSamples, stepsFor, traceOutline } from './pressure-outline.js';
import { paintText } from './text-painter.js';

/** Segments shorter than this many device pixels are drawn as a simplified polyline. */
const DETAIL_PIXELS = 1;
/** Ink with pressure thinner than this many device pixels is drawn as a line of its mean width. */
const THIN_PIXELS = 2;

const scratch = new Float64Array(8);

/**
 * The decoded pixels of an image of the board, or null while they are not at hand (a placeholder shows).
 * @typedef {(stroke: {image?: import('../model/board-image.js').BoardImage}) => import('./image-painter.js').Pixels | null} ImageSource
 */

/** No image's pixels: every image a placeholder. @type {ImageSource} */
export const noImages = () => null;

/**
 * Paints strokes bottom to top, text boxes (text-painter.js) and images (image-painter.js) among them. The
 * context's transform maps board coordinates to its pixels.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {Iterable<import('./scene.js').SceneStroke>} strokes
 * @param {(colour: number) => string} style the CSS colour for a stroke colour (the theme's)
 * @param {number} [pixelScale] device pixels per board pixel; Infinity (the default) always draws curves
 * @param {ImageSource} [image] images' pixels; without, placeholders
 */
export function paintStrokes(ctx, strokes, style, pixelScale = Infinity, image = noImages) {
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  let batchColour = -1;
  let batchWidth = -1;
  let open = false;
  const flush = () => {
    if (!open) return;
    ctx.strokeStyle = style(batchColour);
    ctx.lineWidth = batchWidth;
    ctx.stroke();
    open = false;
  };
  for (const stroke of strokes) {
    if (stroke.shown.length === 0) continue;
    if (stroke.text !== undefined) {
      flush();
      paintText(ctx, stroke, style);
      continue;
    }
    if (stroke.image !== undefined) {
      flush();
      paintImage(ctx, stroke, image(stroke));
      continue;
    }
    // Translucent ink (a highlighter's) is not batched: where two strokes cross, both show, as in the SVG.
    const plain = stroke.identity && stroke.pointCount > 1 && stroke.fill === undefined && (stroke.colour & 0xff) === 0xff;
    const width = stroke.pressures === null ? stroke.width : stroke.width * meanPressure(stroke);
    if (plain && (stroke.pressures === null || width * pixelScale < THIN_PIXELS)) {
      if (!open || stroke.colour !== batchColour || width !== batchWidth) {
        flush();
        ctx.beginPath();
        batchColour = stroke.colour;
        batchWidth = width;
        open = true;
      }
      const pixels = stroke.spacing * pixelScale;
      if (pixels < DETAIL_PIXELS) traceSimplified(ctx, stroke.points, stroke.shown, Math.max(1, Math.floor(1.5 / pixels)));
      else tracePieces(ctx, stroke.curve, stroke.shown);
      continue;
    }
    flush();
    paintStroke(ctx, stroke, style, noImages, stroke.pressures === null ? STEPS : stepsFor(stroke.spacing * pixelScale));
  }
  flush();
}

/**
 * Paints one stroke, whatever it is: a dot, with pressure, under a transform; or a text box, or an image.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {{curve: import('../geometry/smooth-curve.js').SmoothCurve | null, shown: [number, number][],
 *   colour: number, width: number, pressures: number[] | null, transform?: number[], identity?: boolean,
 *   text?: string, points?: [number, number][], image?: import('../model/board-image.js').BoardImage}} stroke
 * @param {(colour: number) => string} style
 * @param {ImageSource} [image]
 * @param {number} [steps] samples per curve segment of ink with pressure (pressure-outline.js `stepsFor`)
 */
export function paintStroke(ctx, stroke, style, image = noImages, steps = STEPS) {
  const { curve, shown, width, pressures } = stroke;
  if (shown.length === 0) return;
  if (stroke.text !== undefined) return paintText(ctx, /** @type {any} */ (stroke), style);
  if (stroke.image !== undefined) return paintImage(ctx, /** @type {any} */ (stroke), image(stroke));
  if (curve === null || curve.points.length === 0) return;
  const transformed = stroke.identity === false;
  if (transformed) {
    ctx.save();
    const t = stroke.transform;
    ctx.transform(t[0], t[1], t[2], t[3], t[4], t[5]);
  }
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  const colour = style(stroke.colour);
  if (stroke.fill !== undefined && curve.points.length > 2) {
    // Erasing cuts the line, not the paint: the whole curve, closed, beneath the ink.
    ctx.fillStyle = style(stroke.fill);
    ctx.beginPath();
    traceClosed(ctx, curve);
    ctx.fill();
  }
  if (curve.segmentCount === 0) {
    const [x, y] = curve.points[0];
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x, y, (width * (pressures?.[0] ?? 1)) / 2, 0, 2 * Math.PI);
    ctx.fill();
  } else if (pressures === null) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    tracePieces(ctx, curve, shown);
    ctx.stroke();
  } else {
    ctx.fillStyle = colour;
    ctx.beginPath();
    // Kept on the scene's record; ink in progress is a new object every frame, so nothing outlives it.
    traceOutline(ctx, pressureSamples(stroke, steps));
    ctx.fill();
  }
  if (transformed) ctx.restore();
}

/** Adds the visible pieces to the current path: a subpath per piece. */
function tracePieces(ctx, curve, pieces) {
  const s = curve.segments;
  for (const piece of pieces) {
    let first = true;
    forEachRange(curve, piece, (index, t0, t1) => {
      let b = s;
      let o = 8 * index;
      if (!(t0 === 0 && t1 === 1)) {
        pieceInto(s, o, t0, t1, scratch, 0);
        b = scratch;
        o = 0;
      }
      if (first) {
        ctx.moveTo(b[o], b[o + 1]);
        first = false;
      }
      ctx.bezierCurveTo(b[o + 2], b[o + 3], b[o + 4], b[o + 5], b[o + 6], b[o + 7]);
    });
  }
}

/**
 * Adds the visible pieces as polylines through every `stride`-th point (and the ends). Piece ends are
 * rounded to whole points: the difference is under a device pixel at the scales this is used at.
 */
function traceSimplified(ctx, points, pieces, stride) {
  const last = points.length - 1;
  for (const [a, b] of pieces) {
    const start = Math.max(0, Math.floor(a));
    const end = Math.min(last, Math.ceil(b));
    if (!(end > start)) continue;
    ctx.moveTo(points[start][0], points[start][1]);
    for (let i = start + stride; i < end; i += stride) ctx.lineTo(points[i][0], points[i][1]);
    ctx.lineTo(points[end][0], points[end][1]);
  }
}

/** Adds the whole curve, every segment, as one closed subpath: the outline a fill paints. */
function traceClosed(ctx, curve) {
  const s = curve.segments;
  ctx.moveTo(s[0], s[1]);
  for (let o = 0; o < 8 * curve.segmentCount; o += 8) ctx.bezierCurveTo(s[o + 2], s[o + 3], s[o + 4], s[o + 5], s[o + 6], s[o + 7]);
  ctx.closePath();
}
