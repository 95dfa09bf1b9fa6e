/**
 * The select tool: a click picks the stroke under it (Shift+click adds or takes it out), a drag on empty
 * board picks the strokes wholly inside the box it drags out, and a drag on the selection moves, scales
 * (corner handles, Shift keeps the aspect ratio) or rotates it (the handle above, Shift snaps to 15°).
 *
 * A move, scale or rotation shows live: the board hides the selected strokes (the scene's preview) and the
 * overlay paints them where the drag puts them; pointer-up commits one change, so one drag is one undo
 * step. The lasso tool (lasso.js) is this tool with a loop instead of a box.
 */

import { IDENTITY } from '../../model/board-drawing.js';
import { transformOperations } from '../../model/selection-edits.js';
import { boxHits, lassoHits, pointHit } from '../selecting.js';
import { GRAB_CURSORS, dragMatrix, grabAt } from '../selection-handles.js';
import { drawMarquee, drawMovedStrokes, drawSelectionBox } from '../selection-overlay.js';

/** How near a click must come to ink to pick its stroke, in screen pixels. */
const HIT_PIXELS = 6;
/** A press that moves less than this (screen pixels) is a click, and moves nothing. */
const DRAG_PIXELS = 3;
/** Lasso corners closer than this (screen pixels) to the last one add nothing. */
const LASSO_STEP = 2;

/**
 * @typedef {import('../input.js').ToolPoint & {shift?: boolean}} ToolPoint
 * @typedef {import('../../model/selection-edits.js').Matrix} Matrix
 * @typedef {{kind: 'transform', grab: import('../selection-handles.js').Grab,
 *   bounds: import('../../geometry/rect.js').Rect, from: [number, number], start: [number, number],
 *   matrix: Matrix, moving: boolean}} TransformDrag `start` is the press in screen pixels
 * @typedef {{kind: 'marquee', points: [number, number][], additive: boolean}} MarqueeDrag
 * @typedef {{kind: 'click'}} ClickDrag a Shift+click, done at pointer-down
 */

/** The select tool (and, with `lasso`, the lasso tool). */
export class SelectTool {
  name = 'select';
  cursor = 'default';
  /** @type {TransformDrag | MarqueeDrag | ClickDrag | null} */
  drag = null;

  /**
   * @param {import('../main.js').ToolContext} context
   * @param {{lasso?: boolean}} [options] pick with a free-form loop instead of clicks and a box
   */
  constructor(context, { lasso = false } = {}) {
    this.context = context;
    this.lasso = lasso;
    this.idleCursor = lasso ? 'crosshair' : 'default';
    this.cursor = this.idleCursor;
  }

  get selection() {
    return this.context.selection;
  }

  /** Whether a drag is under way. */
  get active() {
    return this.drag !== null;
  }

  /** @param {ToolPoint} point */
  down(point) {
    const at = /** @type {[number, number]} */ ([point.x, point.y]);
    const scale = this.context.viewport.scale;
    const bounds = this.selection.bounds;
    const grab = bounds === null ? null : grabAt(bounds, at, scale);
    if (grab !== null && grab !== 'move') return this.#startTransform(grab, at, point);
    if (!this.lasso) {
      const hit = pointHit(this.context.scene, at, HIT_PIXELS / scale);
      if (hit !== null && point.shift) {
        this.selection.toggle([hit]);
        this.drag = { kind: 'click' };
        return;
      }
      if (hit !== null) {
        if (!this.selection.has(hit)) this.selection.set([hit]);
        return this.#startTransform('move', at, point);
      }
    }
    if (grab === 'move' && !point.shift) return this.#startTransform('move', at, point);
    if (!point.shift) this.selection.clear();
    this.drag = { kind: 'marquee', points: [at], additive: Boolean(point.shift) };
    this.context.renderer.overlayChanged();
  }

  /** @param {ToolPoint[]} points */
  move(points) {
    const drag = this.drag;
    if (drag === null || drag.kind === 'click' || points.length === 0) return;
    const last = points[points.length - 1];
    if (drag.kind === 'marquee') {
      if (this.lasso) {
        const step = LASSO_STEP / this.context.viewport.scale;
        for (const point of points) {
          const [x, y] = drag.points[drag.points.length - 1];
          if (Math.abs(point.x - x) >= step || Math.abs(point.y - y) >= step) drag.points.push([point.x, point.y]);
        }
      } else {
        drag.points = [drag.points[0], [last.x, last.y]];
      }
      this.context.renderer.overlayChanged();
      return;
    }
    if (!drag.moving) {
      if (Math.hypot(last.sx - drag.start[0], last.sy - drag.start[1]) < DRAG_PIXELS) return;
      drag.moving = true;
      this.#hideSelected();
    }
    drag.matrix = dragMatrix(drag.grab, drag.bounds, drag.from, [last.x, last.y], { shift: Boolean(last.shift) });
    this.context.renderer.overlayChanged();
  }

  /** @param {ToolPoint | null} point */
  up(point) {
    const drag = this.drag;
    if (drag === null) return;
    if (point !== null) this.move([point]);
    this.drag = null;
    if (drag.kind === 'marquee') {
      this.#finishMarquee(drag);
    } else if (drag.kind === 'transform' && drag.moving) {
      this.context.commitReplacingPreview(transformOperations(this.selection.strokes(), drag.matrix));
    }
    this.context.renderer.overlayChanged();
  }

  cancel() {
    const drag = this.drag;
    this.drag = null;
    if (drag?.kind === 'transform' && drag.moving) this.context.dropPreview();
    this.context.renderer.overlayChanged();
  }

  /** Shows which part of the selection a press would take. @param {ToolPoint | null} point */
  hoverAt(point) {
    if (this.drag !== null) return;
    const bounds = this.selection.bounds;
    const grab = point === null || bounds === null ? null : grabAt(bounds, [point.x, point.y], this.context.viewport.scale);
    const cursor = grab === null ? this.idleCursor : GRAB_CURSORS[grab];
    if (cursor === this.cursor) return;
    this.cursor = cursor;
    this.context.cursorChanged?.();
  }

  /** Draws the selection, the drag's result, or the box or loop being dragged out. */
  layer(ctx, renderer) {
    const drag = this.drag;
    if (drag?.kind === 'transform' && drag.moving) {
      const strokes = this.selection.ids.map((id) => this.context.scene.stroke(id)).filter((stroke) => stroke !== undefined);
      drawMovedStrokes(ctx, this.context.scene.sort(strokes), drag.matrix, renderer);
      drawSelectionBox(ctx, drag.bounds, renderer, drag.matrix);
      return;
    }
    const bounds = this.selection.bounds;
    if (bounds !== null) drawSelectionBox(ctx, bounds, renderer);
    if (drag?.kind === 'marquee') drawMarquee(ctx, this.#polygon(drag), renderer);
  }

  /** @param {import('../selection-handles.js').Grab} grab @param {[number, number]} at @param {ToolPoint} point */
  #startTransform(grab, at, point) {
    const bounds = this.selection.bounds;
    if (bounds === null) return;
    this.drag = { kind: 'transform', grab, bounds, from: at, start: [point.sx, point.sy], matrix: [...IDENTITY], moving: false };
    this.context.renderer.overlayChanged();
  }

  /** The board stops drawing the selected strokes: the overlay paints them where the drag puts them. */
  #hideSelected() {
    const dirty = [];
    for (const id of this.selection.ids) {
      const rect = this.context.scene.preview(id, 'hidden');
      if (rect !== null) dirty.push(rect);
    }
    if (dirty.length > 0) this.context.renderer.invalidate(dirty);
  }

  /** @param {MarqueeDrag} drag */
  #finishMarquee(drag) {
    const polygon = this.#polygon(drag);
    let ids = [];
    if (this.lasso) ids = lassoHits(this.context.scene, polygon);
    else {
      const [[x0, y0], [x1, y1]] = [drag.points[0], drag.points[drag.points.length - 1]];
      ids = boxHits(this.context.scene, { minX: Math.min(x0, x1), minY: Math.min(y0, y1), maxX: Math.max(x0, x1), maxY: Math.max(y0, y1) });
    }
    if (drag.additive) this.selection.add(ids);
    else this.selection.set(ids);
  }

  /** The box's corners, or the loop's. @param {MarqueeDrag} drag @returns {[number, number][]} */
  #polygon(drag) {
    if (this.lasso) return drag.points;
    const [[x0, y0], [x1, y1]] = [drag.points[0], drag.points[drag.points.length - 1]];
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  }
}
