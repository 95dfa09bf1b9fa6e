/**
 * Paints an image on a 2D canvas context: its pixels stretched to its box under its transform, as the SVG
 * export places them; until they are decoded, a light grey box with a thin border where it will be, so the
 * board shows that something is there and how big it is. The loading bar of an image still arriving is
 * drawn over it on the overlay (`paintImageProgress`), so the tiles never repaint for progress.
 */

/** The placeholder's fill: the grey of Swift's SVG for an image without its bytes. */
export const PLACEHOLDER_FILL = '#e5e7eb';
const PLACEHOLDER_EDGE = '#c5cad3';

/**
 * @typedef {{points: [number, number][], transform: number[], identity?: boolean,
 *   image?: {width: number, height: number}}} ImageStroke
 * @typedef {CanvasImageSource & {width: number, height: number}} Pixels
 */

/**
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx in board coordinates
 * @param {ImageStroke} stroke an image of the scene or the drawing
 * @param {Pixels | null} pixels its decoded image, or null for the placeholder
 */
export function paintImage(ctx, stroke, pixels) {
  if (stroke.image === undefined) return;
  const [x, y] = stroke.points[0];
  const { width, height } = stroke.image;
  ctx.save();
  if (stroke.identity !== true) {
    const t = stroke.transform;
    ctx.transform(t[0], t[1], t[2], t[3], t[4], t[5]);
  }
  if (pixels !== null) {
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(pixels, x, y, width, height);
  } else {
    ctx.fillStyle = PLACEHOLDER_FILL;
    ctx.fillRect(x, y, width, height);
    // A hairline at any zoom: a pixel of the context, inside the box.
    const m = ctx.getTransform?.();
    const hair = m === undefined ? 1 : 1 / Math.max(1e-6, Math.hypot(m.a, m.b));
    ctx.strokeStyle = PLACEHOLDER_EDGE;
    ctx.lineWidth = hair;
    ctx.strokeRect(x + hair / 2, y + hair / 2, Math.max(0, width - hair), Math.max(0, height - hair));
  }
  ctx.restore();
}

/**
 * A thin bar along the bottom of an image still arriving, filled to `fraction`, a constant size on screen.
 * @param {CanvasRenderingContext2D} ctx in board coordinates
 * @param {[number, number][]} corners the image's box on the board, clockwise from its corner point
 * @param {number} fraction 0…1
 * @param {{scale: number, accent: string}} view CSS pixels per board pixel, and the bar's colour
 */
export function paintImageProgress(ctx, corners, fraction, { scale, accent }) {
  const [, , bottomRight, bottomLeft] = corners;
  const px = 1 / scale;
  const length = Math.hypot(bottomRight[0] - bottomLeft[0], bottomRight[1] - bottomLeft[1]);
  if (!(length > 24 * px)) return;
  const [ux, uy] = [(bottomRight[0] - bottomLeft[0]) / length, (bottomRight[1] - bottomLeft[1]) / length];
  // Up the box, perpendicular to its bottom edge, whatever its turn.
  const [nx, ny] = [uy, -ux];
  const inset = Math.min(12 * px, length / 8);
  const start = [bottomLeft[0] + ux * inset + nx * 8 * px, bottomLeft[1] + uy * inset + ny * 8 * px];
  const span = length - 2 * inset;
  ctx.save();
  ctx.lineCap = 'round';
  ctx.lineWidth = 4 * px;
  ctx.strokeStyle = 'rgb(0 0 0 / 0.12)';
  ctx.beginPath();
  ctx.moveTo(start[0], start[1]);
  ctx.lineTo(start[0] + ux * span, start[1] + uy * span);
  ctx.stroke();
  const done = span * Math.max(0, Math.min(1, fraction));
  if (done > 0) {
    ctx.strokeStyle = accent;
    ctx.beginPath();
    ctx.moveTo(start[0], start[1]);
    ctx.lineTo(start[0] + ux * done, start[1] + uy * done);
    ctx.stroke();
  }
  ctx.restore();
}
