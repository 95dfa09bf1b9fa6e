// What draws a stroke, and the paint inside it, as Sources/InkwellBoard/Model/StrokeStyle.swift (`Brush`)
// and Attribute.swift (`fill`).
//
// A highlighter's ink goes beneath every other element whatever their z-orders: its strokes stack among
// themselves, under the pens', text and images. A fill is a last-writer-wins attribute like colour, a
// colour of alpha 0 meaning none, so clearing a fill is a write that undo takes back like any other.

/** The brushes, at their wire numbers (Swift's `Brush` raw values): 0 a pen, 1 a highlighter. */
export const BRUSHES = Object.freeze(['pen', 'highlighter']);

/** @typedef {'pen' | 'highlighter'} Brush */

/**
 * The brush an `addStroke` names: a pen when it names none, as before brushes; null for one this version
 * does not know, which makes the whole operation unreadable (a newer schema's, ignored).
 * @param {unknown} value the JSON form's `brush`
 * @returns {Brush | null}
 */
export function readBrush(value) {
  if (value === undefined) return 'pen';
  return BRUSHES.includes(/** @type {any} */ (value)) ? /** @type {Brush} */ (value) : null;
}

/**
 * An element's layer in the stack, the first thing it is ordered by: 0 for a highlighter's stroke, 1 for
 * everything else (pen ink, text boxes, images).
 * @param {Brush} brush
 */
export function layerOf(brush) {
  return brush === 'highlighter' ? 0 : 1;
}

/**
 * Whether a fill colour paints anything: its alpha (the low byte of 0xRRGGBBAA) is above 0.
 * @param {number} colour
 */
export function showsFill(colour) {
  return colour % 0x100 !== 0;
}
