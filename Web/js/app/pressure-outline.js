/**
 * Ink whose width follows the pen's pressure, as one filled shape: discs along the curve, each pair of
 * neighbours joined by the band that touches both (perfect-freehand's look, without its outline tracing).
 * Every disc and band winds the same way, so the nonzero fill is their union: no seams, and translucent ink
 * is as even as opaque ink. The samples are computed once per stroke, its visible pieces and its level of
 * detail (`pressureSamples` caches them on the scene's record), so repainting a tile only replays them;
 * zoomed out, fewer samples per segment do (`stepsFor`).
 */

import { forEachRange } from '../geometry/curve-pieces.js';

/** Samples per curve segment: points are a few pixels apart, so four keep the edge smooth when zoomed in. */
export const STEPS = 4;
/** Device pixels between samples that keep the edge smooth: fewer samples on a segment shown shorter. */
const SAMPLE_PIXELS = 3;

/**
 * Samples per segment for segments `pixels` long on screen: 4 zoomed in, down to 1 where a segment is
 * only a few device pixels long and more discs would pile up on the same pixels.
 * @param {number} pixels a segment's mean length in device pixels (Infinity: as detailed as it gets)
 */
export function stepsFor(pixels) {
  // Export paints at no scale (Infinity), and a stroke of one repeated point has no spacing (NaN there).
  if (!Number.isFinite(pixels)) return STEPS;
  return Math.max(1, Math.min(STEPS, Math.ceil(pixels / SAMPLE_PIXELS)));
}
/** The thinnest ink, as a share of the width: a feather-light touch still shows. */
const MINIMUM_PRESSURE = 1 / 24;

/**
 * `[x, y, radius, …]` per visible piece, along the curve, radius from the pressure at that point.
 * @param {import('../geometry/smooth-curve.js').SmoothCurve} curve
 * @param {[number, number][]} pieces
 * @param {number} width
 * @param {number[]} pressures one per point
 * @param {number} [steps] samples per segment
 * @returns {Float64Array[]}
 */
export function samplePressure(curve, pieces, width, pressures, steps = STEPS) {
  const s = curve.segments;
  const out = [];
  for (const piece of pieces) {
    const samples = [];
    forEachRange(curve, piece, (index, t0, t1) => {
      const o = 8 * index;
      const first = samples.length === 0 ? 0 : 1;
      for (let k = first; k <= steps; k++) {
        const t = t0 + ((t1 - t0) * k) / steps;
        const u = 1 - t;
        const a = u * u * u;
        const b = 3 * u * u * t;
        const c = 3 * u * t * t;
        const d = t * t * t;
        const p = pressures[index] + (pressures[index + 1] - pressures[index]) * t;
        samples.push(
          a * s[o] + b * s[o + 2] + c * s[o + 4] + d * s[o + 6],
          a * s[o + 1] + b * s[o + 3] + c * s[o + 5] + d * s[o + 7],
          (width * Math.max(MINIMUM_PRESSURE, p)) / 2,
        );
      }
    });
    if (samples.length > 0) out.push(Float64Array.from(samples));
  }
  return out;
}

/**
 * The samples of a scene record, computed once for what it shows at a level of detail: the record is
 * replaced when its stroke changes, and `shown` when the eraser's preview cuts it.
 * @param {{curve: any, shown: [number, number][], width: number, pressures: number[] | null,
 *   pressureCache?: {shown: [number, number][], samples: Float64Array[][]}}} stroke
 * @param {number} [steps] samples per segment
 */
export function pressureSamples(stroke, steps = STEPS) {
  let cached = stroke.pressureCache;
  if (cached === undefined || cached.shown !== stroke.shown) {
    cached = { shown: stroke.shown, samples: [] };
    stroke.pressureCache = cached;
  }
  cached.samples[steps] ??= samplePressure(stroke.curve, stroke.shown, stroke.width, /** @type {number[]} */ (stroke.pressures), steps);
  return cached.samples[steps];
}

/**
 * The mean of a record's pressures, kept on it: the width its ink is drawn at where the change of width
 * along it is too thin to see.
 * @param {{pressures: number[] | null, meanPressure?: number}} stroke
 */
export function meanPressure(stroke) {
  if (stroke.meanPressure === undefined) {
    const pressures = stroke.pressures ?? [1];
    stroke.meanPressure = pressures.reduce((sum, p) => sum + p, 0) / pressures.length;
  }
  return stroke.meanPressure;
}

/**
 * Adds the ink's shape to the current path: a disc at every sample and the band between neighbours, all
 * wound clockwise (on screen) so that `fill('nonzero')` paints their union.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {Float64Array[]} pieces from `samplePressure`
 */
export function traceOutline(ctx, pieces) {
  for (const v of pieces) {
    for (let i = 0; i < v.length; i += 3) {
      const x = v[i];
      const y = v[i + 1];
      const r = v[i + 2];
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      if (i === 0) continue;
      band(ctx, v[i - 3], v[i - 2], v[i - 1], x, y, r);
    }
  }
}

/** The quadrilateral along two discs' outer tangents (none when one disc holds the other). */
function band(ctx, x0, y0, r0, x1, y1, r1) {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const length = Math.hypot(dx, dy);
  if (length <= Math.abs(r1 - r0)) return;
  const ux = dx / length;
  const uy = dy / length;
  // The tangents touch each disc at angle ±acos((r0 − r1) / length) from the direction of travel.
  const cos = (r0 - r1) / length;
  const sin = Math.sqrt(1 - cos * cos);
  const nx = ux * cos - uy * sin;
  const ny = uy * cos + ux * sin;
  const mx = ux * cos + uy * sin;
  const my = uy * cos - ux * sin;
  // Clockwise on screen (y down): the left side forward, the right side back.
  ctx.moveTo(x0 + r0 * mx, y0 + r0 * my);
  ctx.lineTo(x1 + r1 * mx, y1 + r1 * my);
  ctx.lineTo(x1 + r1 * nx, y1 + r1 * ny);
  ctx.lineTo(x0 + r0 * nx, y0 + r0 * ny);
  ctx.closePath();
}
