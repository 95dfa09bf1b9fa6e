/**
 * The stroke eraser: every stroke the circle touches goes whole. Touched strokes vanish at once (the
 * scene's preview) and are deleted at pointer-up in one change.
 */

import { deleteOperations, strokeHits } from '../erasing.js';
import { CircleEraser } from './circle-eraser.js';

/** The stroke eraser tool. */
export class StrokeEraserTool extends CircleEraser {
  name = 'stroke-eraser';
  /** @type {Set<string>} */
  hits = new Set();

  sweep(path) {
    const dirty = [];
    for (const id of strokeHits(this.context.scene, path, this.radius)) {
      if (this.hits.has(id)) continue;
      this.hits.add(id);
      const rect = this.context.scene.preview(id, 'hidden');
      if (rect !== null) dirty.push(rect);
    }
    if (dirty.length > 0) this.context.renderer.invalidate(dirty);
  }

  operations() {
    return deleteOperations(this.hits);
  }

  reset() {
    this.hits = new Set();
  }
}
