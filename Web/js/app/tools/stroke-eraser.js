/**
 * The stroke eraser: every stroke the circle touches goes whole. Touched strokes vanish at once (the
 * scene's preview) and are deleted at pointer-up in one change.
 */

import { deleteOperations, strokeHits } from '../erasing.js';
import { drawEraserCircle, eraserRadius } from './eraser.js';

/** The stroke eraser tool. */
export class StrokeEraserTool {
  name = 'stroke-eraser';
  cursor = 'none';
  /** @type {[number, number] | null} */
  last = null;
  /** @type {Set<string>} */
  hits = new Set();
  hover = null;

  /** @param {import('../main.js').ToolContext} context */
  constructor(context) {
    this.context = context;
  }

  get active() {
    return this.last !== null;
  }

  get radius() {
    return eraserRadius(this.context.settings.width) / this.context.viewport.scale;
  }

  down(point) {
    this.last = [point.x, point.y];
    this.hover = [point.x, point.y];
    this.#sweep([this.last]);
  }

  move(points) {
    const last = points[points.length - 1];
    this.hover = [last.x, last.y];
    if (this.last !== null) {
      const path = [this.last, ...points.map((p) => [p.x, p.y])];
      this.last = path[path.length - 1];
      this.#sweep(path);
    }
    this.context.renderer.overlayChanged();
  }

  up(point) {
    if (this.last === null) return;
    if (point !== null) this.move([point]);
    this.last = null;
    const operations = deleteOperations(this.hits);
    this.hits = new Set();
    this.context.commitReplacingPreview(operations);
  }

  cancel() {
    this.last = null;
    this.hits = new Set();
    this.context.dropPreview();
  }

  hoverAt(point) {
    this.hover = point === null ? null : [point.x, point.y];
    this.context.renderer.overlayChanged();
  }

  #sweep(path) {
    const dirty = [];
    for (const id of strokeHits(this.context.scene, path, this.radius)) {
      if (this.hits.has(id)) continue;
      this.hits.add(id);
      const rect = this.context.scene.preview(id, 'hidden');
      if (rect !== null) dirty.push(rect);
    }
    if (dirty.length > 0) this.context.renderer.invalidate(dirty);
  }

  layer(ctx, renderer) {
    if (this.hover === null) return;
    drawEraserCircle(ctx, this.hover, this.radius, renderer);
  }
}
