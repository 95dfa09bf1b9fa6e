// The drawing: visible strokes as a renderer needs them, as Sources/InkwellBoard/Drawing/BoardState+Drawing.swift.

import { currentValue } from './attribute-history.js';
import { showsFill } from './board-brush.js';
import { shownText } from './box-text.js';
import { isText } from './stroke-record.js';

/**
 * A visible stroke, in the shape of `expected.strokes` in Conformance/board.json. Its arrays are the
 * board's own: read them, never change them; a later apply may replace or extend them. A text box has
 * `text`, the text as it shows (possibly empty), its corner as its one point and its font size as its
 * width; an image has `image` (its blob and box, frozen), its corner as its one point, its box's width as
 * its width and black as its colour, whatever `set` says of either; ink has neither key at all. A
 * highlighter's stroke has `brush: 'highlighter'` (it comes before every other element in the drawing);
 * ink painted inside has `fill`, a colour 0xRRGGBBAA of alpha above 0, for the closed outline of all its
 * points whatever is erased of them; neither key is there otherwise (a pen's ink, no fill, text, images).
 * @typedef {{
 *   id: string, colour: number, width: number, z: number,
 *   transform: [number, number, number, number, number, number],
 *   points: [number, number][], pressures: number[] | null, pieces: [number, number][],
 *   text?: string, image?: import('./board-image.js').BoardImage, brush?: 'highlighter', fill?: number
 * }} DrawingStroke
 */

/** `[a, b, c, d, tx, ty]` of the identity transform. */
export const IDENTITY = Object.freeze([1, 0, 0, 1, 0, 0]);

/**
 * A visible stroke, or null if it is hidden, erased away, deleted, undone or not here yet.
 * @param {import('./board-state.js').BoardState} state
 * @param {string} id
 * @returns {DrawingStroke | null}
 * - Complexity: O(1) (the arrays are shared, not copied); for a box whose text changed since it was last
 *   read, O(n log n) for its n characters typed.
 */
export function drawingStroke(state, id) {
  const entry = state.stackEntries.get(id);
  const record = state.records.get(id);
  if (entry === undefined || record === undefined || record.added === null) return null;
  const { attributes, added } = record;
  let { colour, width } = added;
  // An image shows its own colours at its box's size, scaled only by its transform.
  if (added.kind !== 'image') {
    colour = currentValue(attributes.get('colour'), state.isActive) ?? colour;
    width = currentValue(attributes.get('width'), state.isActive) ?? width;
  }
  const transform = currentValue(attributes.get('transform'), state.isActive) ?? IDENTITY;
  /** @type {DrawingStroke} */
  const stroke = {
    id,
    colour,
    width,
    z: entry.z,
    transform,
    points: record.points,
    pressures: record.pressures,
    pieces: record.pieces,
  };
  if (isText(record)) stroke.text = shownText(record, state.isActive);
  else if (added.kind === 'image') stroke.image = added.image;
  if (added.brush !== 'pen') stroke.brush = added.brush;
  // Only ink takes a fill; a fill of alpha 0 is none.
  const fill = added.kind === 'ink' ? currentValue(attributes.get('fill'), state.isActive) : undefined;
  if (fill !== undefined && showsFill(fill)) stroke.fill = fill;
  return stroke;
}
