/**
 * The pen: collects pointer samples (with a pen's pressure, or one from the speed of a mouse or a finger:
 * ink.js `simulatedPressure`), shows the stroke on the overlay as it
 * grows, streams it to the others as presence, and commits it at pen-up as one addStroke (recognised as a
 * shape first when that is on).
 */

import { smoothCurve } from '../../geometry/index.js';
import { MAXIMUM_POINTS, SIMULATED_START, penUpOperations, simulatedPressure } from '../ink.js';
import { paintStroke } from '../stroke-painter.js';

/** Samples closer than this (screen pixels) to the last kept one add nothing but weight. */
const MINIMUM_STEP = 0.75;
/** The most recent points sent as in-progress ink: enough to see, within the presence size limit. */
const PRESENCE_POINTS = 4_000;

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

  /** @param {ToolContext} context */
  constructor(context) {
    this.context = context;
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
    const { operations, shape } = penUpOperations(this.points, this.pressures, this.style(), this.context.settings.shapes);
    this.lastShape = shape.kind;
    this.points = null;
    this.pressures = null;
    this.context.commit(operations);
    this.context.renderer.overlayChanged();
    this.context.setInk(null);
  }

  cancel() {
    if (this.points === null) return;
    this.points = null;
    this.pressures = null;
    this.context.renderer.overlayChanged();
    this.context.setInk(null);
  }

  /** Draws the stroke in progress. @param {CanvasRenderingContext2D} ctx */
  layer(ctx, renderer) {
    if (this.points === null) return;
    const { colour, width } = this.style();
    paintLive(ctx, this.points, this.pressures, colour, width, renderer.style);
  }

  #sendInk() {
    const { colour, width } = this.style();
    const start = Math.max(0, this.points.length - PRESENCE_POINTS);
    this.context.setInk({
      points: this.points.slice(start),
      pressures: this.pressures?.slice(start) ?? null,
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
