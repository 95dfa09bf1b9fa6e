/**
 * The partial eraser: a circle that cuts strokes where it passes. Cuts show at once (the scene's preview)
 * and are committed at pointer-up as one erase change.
 */

import { eraseOperations, partialCuts } from '../erasing.js';
import { intervalUnion } from '../../geometry/index.js';
import { CircleEraser } from './circle-eraser.js';

export { eraserRadius } from './circle-eraser.js';

/** The partial eraser tool. */
export class EraserTool extends CircleEraser {
  name = 'eraser';
  /** @type {Map<string, [number, number][]>} */
  cuts = new Map();

  sweep(path) {
    const { cuts, reach } = partialCuts(this.context.scene, path, this.radius);
    if (reach === null) return;
    const dirty = [];
    for (const [id, cut] of cuts) {
      const all = intervalUnion([...(this.cuts.get(id) ?? []), ...cut]);
      this.cuts.set(id, all);
      const rect = this.context.scene.preview(id, all, reach);
      if (rect !== null) dirty.push(rect);
    }
    if (dirty.length > 0) this.context.renderer.invalidate(dirty);
  }

  operations() {
    return eraseOperations(this.cuts, this.context.session.board);
  }

  reset() {
    this.cuts = new Map();
  }
}
