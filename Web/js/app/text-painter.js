/**
 * Paints a text box on a 2D canvas context: its lines in its colour, on the layout's baselines
 * (text-layout.js), under its transform, as the SVG export writes them.
 */

import { baseline, textFont, textLines } from './text-layout.js';

/**
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx in board coordinates
 * @param {{text?: string, colour: number, width: number, points: [number, number][], transform: number[],
 *   identity?: boolean}} box
 * @param {(colour: number) => string} style the CSS colour for a stroke colour (the theme's)
 */
export function paintText(ctx, box, style) {
  const text = box.text ?? '';
  if (text === '') return;
  const [x, y] = box.points[0];
  const size = box.width;
  const t = box.transform;
  ctx.save();
  if (box.identity !== true) ctx.transform(t[0], t[1], t[2], t[3], t[4], t[5]);
  ctx.font = textFont(size);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = style(box.colour);
  for (const [index, line] of textLines(text).entries()) {
    if (line !== '') ctx.fillText(line, x, baseline(y, size, index));
  }
  ctx.restore();
}
