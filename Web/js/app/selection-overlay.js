/**
 * What the select and lasso tools draw on the overlay: the selection's box and handles, the box or loop
 * being dragged out, and, during a move, scale or rotation, the selected strokes where the drag puts them
 * (the board hides them meanwhile, so the frame shows the result and the change is made once, at
 * pointer-up). Lines are a constant width on screen.
 */

import { compose } from '../model/selection-edits.js';
import { handles, transformedCorners } from './selection-handles.js';
import { paintStroke } from './stroke-painter.js';

/**
 * @typedef {import('../geometry/rect.js').Rect} Rect
 * @typedef {import('../model/selection-edits.js').Matrix} Matrix
 * @typedef {import('./renderer.js').Renderer} Renderer
 */

/** The selection's colour on each theme. */
function accent(renderer) {
  return renderer.theme === 'dark' ? '#4dabf7' : '#1971c2';
}

/** One CSS pixel in board pixels. */
function pixel(renderer) {
  return 1 / renderer.viewport.scale;
}

/**
 * The selection's box with its corner handles and rotate handle; under a drag's `matrix`, the outline
 * where the drag takes it, without handles.
 * @param {CanvasRenderingContext2D} ctx in board coordinates
 * @param {Rect} bounds
 * @param {Renderer} renderer
 * @param {Matrix | null} [matrix]
 */
export function drawSelectionBox(ctx, bounds, renderer, matrix = null) {
  const px = pixel(renderer);
  const colour = accent(renderer);
  ctx.lineWidth = 1.5 * px;
  ctx.strokeStyle = colour;
  if (matrix !== null) {
    outline(ctx, transformedCorners(bounds, matrix));
    ctx.stroke();
    return;
  }
  ctx.strokeRect(bounds.minX, bounds.minY, bounds.maxX - bounds.minX, bounds.maxY - bounds.minY);
  const { corners, rotate, size } = handles(bounds, renderer.viewport.scale);
  ctx.beginPath();
  ctx.moveTo((bounds.minX + bounds.maxX) / 2, bounds.minY);
  ctx.lineTo(rotate[0], rotate[1]);
  ctx.stroke();
  ctx.fillStyle = renderer.theme === 'dark' ? '#1e1e1e' : '#ffffff';
  for (const [, [x, y]] of corners) {
    ctx.fillRect(x - size / 2, y - size / 2, size, size);
    ctx.strokeRect(x - size / 2, y - size / 2, size, size);
  }
  ctx.beginPath();
  ctx.arc(rotate[0], rotate[1], size / 2 + px, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
}

/**
 * The box being dragged out (select) or the loop being drawn (lasso): a dashed line over a light fill.
 * @param {CanvasRenderingContext2D} ctx
 * @param {[number, number][]} polygon
 * @param {Renderer} renderer
 */
export function drawMarquee(ctx, polygon, renderer) {
  if (polygon.length < 2) return;
  const px = pixel(renderer);
  outline(ctx, polygon);
  ctx.fillStyle = renderer.theme === 'dark' ? 'rgb(77 171 247 / 0.12)' : 'rgb(25 113 194 / 0.08)';
  ctx.fill('nonzero');
  ctx.setLineDash([5 * px, 4 * px]);
  ctx.lineWidth = 1.25 * px;
  ctx.strokeStyle = accent(renderer);
  ctx.stroke();
  ctx.setLineDash([]);
}

/**
 * The selected strokes as a drag shows them: each as the scene has it now (so others' edits show at once),
 * under `matrix` after its own transform.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Iterable<import('./scene.js').SceneStroke>} strokes bottom to top
 * @param {Matrix} matrix
 * @param {Renderer} renderer
 */
export function drawMovedStrokes(ctx, strokes, matrix, renderer) {
  for (const stroke of strokes) {
    paintStroke(ctx, { ...stroke, shown: stroke.pieces, transform: compose(matrix, stroke.transform), identity: false }, renderer.style, renderer.images);
  }
}

/** A closed path through `points`. */
function outline(ctx, points) {
  ctx.beginPath();
  ctx.moveTo(points[0][0], points[0][1]);
  for (let i = 1; i < points.length; i++) ctx.lineTo(points[i][0], points[i][1]);
  ctx.closePath();
}
