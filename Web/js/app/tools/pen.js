/**
 * The pen: collects pointer samples (with a pen's pressure, or one from the speed of a mouse or a finger:
 * ink.js `simulatedPressure`), shows the stroke on the overlay as it grows, streams it to the others as
 * presence, and commits it at pen-up as one addStroke (recognised as a shape first when that is on).
 *
 * A stroke drawn for longer than CHECKPOINT_INTERVAL is saved while it grows (js/app/ink-checkpoints.js):
 * a crash or a closed tab loses at most that much ink, and the presence and the overlay carry only what
 * is not saved yet.
 */

import { smoothCurve } from '../../geometry/index.js';
import { MAXIMUM_POINTS, SIMULATED_START, simulatedPressure, snapPoint, snapPressure } from '../ink.js';
import { InkCheckpoints } from '../ink-checkpoints.js';
import { paintStroke } from '../stroke-painter.js';

/** Samples closer than this (screen pixels) to the last kept one add nothing but weight. */
const MINIMUM_STEP = 0.75;
/** The most recent points sent as in-progress ink: enough to see, within the presence size limit. */
const PRESENCE_POINTS = 4_000;
/** Milliseconds of drawing that become a change while the pen is still down: what a crash can lose. */
export const CHECKPOINT_INTERVAL = 250;

/**
 * A browser's interval timer, wrapped: a browser's timer functions refuse to be called as methods of
 * another object.
 * @typedef {{setInterval: (f: () => void, ms: number) => any, clearInterval: (t: any) => void}} IntervalTimers
 * @type {IntervalTimers}
 */
const browserTimers = {
  // Must not keep node's test runner alive; browsers have no `unref`.
  setInterval: (f, ms) => {
    const timer = setInterval(f, ms);
    timer.unref?.();
    return timer;
  },
  clearInterval: (t) => clearInterval(t),
};

/**
 * @typedef {{x: number, y: number, pressure: number, pointerType: string}} ToolPoint board coordinates
 * @typedef {import('../main.js').ToolContext} ToolContext
 */

/** The pen tool. */
export class PenTool {
  name = 'pen';
  cursor = 'crosshair';
  /** @type {[number, number][] | null} */
  points = null;
  /** @type {number[] | null} */
  pressures = null;
  /** Whether the pressures are simulated from speed (a mouse, a finger), and the last sample on screen. */
  simulated = false;
  /** @type {[number, number]} */
  lastScreen = [0, 0];
  /** The recognised shape of the last stroke, for the UI's hint. */
  lastShape = 'none';
  /** What of the stroke is saved already. @type {InkCheckpoints | null} */
  saved = null;
  #timers;
  #ticker = null;

  /**
   * @param {ToolContext} context
   * @param {{timers?: IntervalTimers}} [options] inject a timer in tests
   */
  constructor(context, { timers = browserTimers } = {}) {
    this.context = context;
    this.#timers = timers;
  }

  /**
   * What new ink looks like: the settings' colour and width, a pen's brush, and pressure kept.
   * @returns {{colour: number, width: number, brush: 'pen' | 'highlighter', pressure: boolean}}
   */
  style() {
    const { colour, width } = this.context.settings;
    return { colour, width, brush: 'pen', pressure: true };
  }

  /** Whether a stroke is being drawn. */
  get active() {
    return this.points !== null;
  }

  /** @param {ToolPoint} point */
  down(point) {
    this.points = [[point.x, point.y]];
    // Only a pen's pressure means anything (mice report 0.5, most touch screens 0 or 1): other ink gets
    // a pressure from its speed instead.
    this.simulated = point.pointerType !== 'pen';
    this.pressures = this.style().pressure ? [this.simulated ? SIMULATED_START : point.pressure] : null;
    this.lastScreen = [point.sx ?? point.x, point.sy ?? point.y];
    this.saved = new InkCheckpoints(this.style(), (operations, options) => this.context.commit(operations, options));
    this.#ticker = this.#timers.setInterval(() => this.checkpoint(), CHECKPOINT_INTERVAL);
    this.context.renderer.overlayChanged();
    this.#sendInk();
  }

  /** @param {ToolPoint[]} points coalesced samples, oldest first */
  move(points) {
    if (this.points === null) return;
    const minimum = MINIMUM_STEP / this.context.viewport.scale;
    for (const point of points) {
      const last = this.points[this.points.length - 1];
      if (Math.abs(point.x - last[0]) < minimum && Math.abs(point.y - last[1]) < minimum) continue;
      this.points.push([point.x, point.y]);
      const screen = [point.sx ?? point.x, point.sy ?? point.y];
      const step = Math.hypot(screen[0] - this.lastScreen[0], screen[1] - this.lastScreen[1]);
      this.lastScreen = screen;
      this.pressures?.push(this.simulated ? simulatedPressure(this.pressures[this.pressures.length - 1], step) : point.pressure);
      if (this.points.length >= MAXIMUM_POINTS) {
        // An enormous stroke goes in pieces that join: the next one starts where this one ends.
        const resume = { ...point };
        this.up(null);
        this.down(resume);
      }
    }
    this.context.renderer.overlayChanged();
    this.#sendInk();
  }

  /** @param {ToolPoint | null} point */
  up(point) {
    if (this.points === null) return;
    if (point !== null) this.move([point]);
    this.lastShape = this.saved.finish(this.points, this.pressures, this.context.settings.shapes).kind;
    this.#end();
  }

  /** Drops the stroke; what of it was saved already is withdrawn (one undo step that redo cannot bring back). */
  cancel() {
    if (this.points === null) return;
    if (this.saved.change !== null) {
      try {
        this.context.session.withdraw(this.saved.change);
      } catch {
        // The session closed: the saved part stays, as any edit made before a close does.
      }
    }
    this.#end();
  }

  /** Saves what was drawn since the last checkpoint (the interval timer calls it while the pen is down). */
  checkpoint() {
    if (this.points === null) return;
    if (this.saved.save(this.points, this.pressures)) {
      this.context.renderer.overlayChanged();
      this.#sendInk();
    }
  }

  /** Draws the stroke in progress: what is not saved yet (the board shows the rest). @param {CanvasRenderingContext2D} ctx */
  layer(ctx, renderer) {
    if (this.points === null) return;
    const { colour, width } = this.style();
    const start = this.saved.tailStart;
    paintLive(ctx, this.points.slice(start), this.pressures?.slice(start) ?? null, colour, width, renderer.style);
  }

  #end() {
    this.#timers.clearInterval(this.#ticker);
    this.#ticker = null;
    this.points = null;
    this.pressures = null;
    this.saved = null;
    this.context.renderer.overlayChanged();
    this.context.setInk(null);
  }

  /** Presence carries the ink not saved yet, on the ink grid: grid points pack in two or three bytes. */
  #sendInk() {
    const { colour, width } = this.style();
    const start = Math.max(this.saved.tailStart, this.points.length - PRESENCE_POINTS);
    this.context.setInk({
      points: this.points.slice(start).map(snapPoint),
      pressures: this.pressures?.slice(start).map(snapPressure) ?? null,
      colour,
      width,
    });
  }
}

/**
 * Paints ink that is not on the board yet (one's own or another's in progress).
 * @param {CanvasRenderingContext2D} ctx
 * @param {[number, number][]} points
 * @param {number[] | null} pressures
 * @param {number} colour
 * @param {number} width
 * @param {(colour: number) => string} style
 */
export function paintLive(ctx, points, pressures, colour, width, style) {
  if (points.length === 0) return;
  const curve = smoothCurve(points);
  const shown = points.length === 1 ? [[0, 0]] : [[0, points.length - 1]];
  paintStroke(ctx, { curve, shown, colour, width, pressures: pressures?.length === points.length ? pressures : null }, style);
}
