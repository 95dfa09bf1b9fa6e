/**
 * The benchmarks' strokes: handwriting-like scribbles from a seed, so every run draws the same board.
 * pan-zoom.js paints them; seed-store.js stores them as the page stores changes it received.
 */

import { snapPoint, snapPressure } from '../js/app/ink.js';
import { PALETTE } from '../js/app/settings.js';
import { seededRandom } from '../js/sync/random.js';

/** The benchmarks' seeded numbers in [0, 1): the page's own generator (mulberry32). */
export const random = seededRandom;

/** The side of the square that holds `strokes` scribbles about as densely as notes. @param {number} strokes */
export function boardSide(strokes) {
  return Math.sqrt(strokes) * 90;
}

/**
 * One scribble's `addStroke` operation, somewhere in a square of `side`.
 * @param {() => number} next @param {number} side @param {number} points @param {boolean} pressure
 */
export function scribble(next, side, points, pressure) {
  let x = next() * side;
  let y = next() * side;
  let heading = next() * 2 * Math.PI;
  const snapped = [];
  const pressures = pressure ? [] : null;
  const phase = next() * 2 * Math.PI;
  for (let p = 0; p < points; p++) {
    heading += (next() - 0.5) * 0.9;
    x += Math.cos(heading) * 3;
    y += Math.sin(heading) * 3;
    snapped.push(snapPoint([x, y]));
    // A pen pressed harder mid-word and lifted at the ends: 0.2 … 0.9.
    pressures?.push(snapPressure(0.55 + 0.35 * Math.sin(phase + (p / points) * 3 * Math.PI)));
  }
  const { colour } = PALETTE[Math.floor(next() * next() * PALETTE.length)];
  const width = [2, 3, 4, 6][Math.floor(next() * 4)];
  return { op: 'addStroke', colour, width, points: snapped, pressures };
}
