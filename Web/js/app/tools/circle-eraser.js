/**
 * What both erasers share: a circle dragged over the board, whose sweep previews what it takes at once
 * and is committed at pointer-up as one change, so one drag is one undo step.
 */

/**
 * The eraser's radius in screen pixels for a pen width: a wider pen, a wider eraser.
 * @param {number} width
 */
export function eraserRadius(width) {
  return 8 + 2 * width;
}

/**
 * A circle eraser. Subclasses say what a sweep takes (`sweep(path)`), what the drag commits
 * (`operations()`) and how to forget it (`reset()`).
 */
export class CircleEraser {
  cursor = 'none';
  /** @type {[number, number] | null} */
  last = null;
  /** Where the pointer is, for drawing the circle; null when it is off the board. */
  hover = null;

  /** @param {import('../main.js').ToolContext} context */
  constructor(context) {
    this.context = context;
  }

  get active() {
    return this.last !== null;
  }

  /** The radius in board pixels. */
  get radius() {
    return eraserRadius(this.context.settings.width) / this.context.viewport.scale;
  }

  down(point) {
    this.last = [point.x, point.y];
    this.hover = [point.x, point.y];
    this.sweep([this.last]);
  }

  move(points) {
    const last = points[points.length - 1];
    this.hover = [last.x, last.y];
    if (this.last !== null) {
      const path = [this.last, ...points.map((p) => [p.x, p.y])];
      this.last = path[path.length - 1];
      this.sweep(path);
    }
    this.context.renderer.overlayChanged();
  }

  up(point) {
    if (this.last === null) return;
    if (point !== null) this.move([point]);
    this.last = null;
    const operations = this.operations();
    this.reset();
    this.context.commitReplacingPreview(operations);
  }

  cancel() {
    this.last = null;
    this.reset();
    this.context.dropPreview();
  }

  /** The pointer left the board (or moved without a button): where to draw the circle. */
  hoverAt(point) {
    this.hover = point === null ? null : [point.x, point.y];
    this.context.renderer.overlayChanged();
  }

  /** Draws the eraser's circle. */
  layer(ctx, renderer) {
    if (this.hover === null) return;
    drawEraserCircle(ctx, this.hover, this.radius, renderer);
  }
}

/**
 * An eraser outline: a thin ring readable on both themes.
 * @param {CanvasRenderingContext2D} ctx in board coordinates
 */
export function drawEraserCircle(ctx, [x, y], radius, renderer) {
  const pixel = 1 / (renderer.viewport.scale * renderer.devicePixelRatio);
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, 2 * Math.PI);
  ctx.lineWidth = 3 * pixel;
  ctx.strokeStyle = renderer.theme === 'dark' ? 'rgb(0 0 0 / 0.6)' : 'rgb(255 255 255 / 0.8)';
  ctx.stroke();
  ctx.lineWidth = 1.25 * pixel;
  ctx.strokeStyle = renderer.theme === 'dark' ? 'rgb(255 255 255 / 0.9)' : 'rgb(0 0 0 / 0.75)';
  ctx.stroke();
}
