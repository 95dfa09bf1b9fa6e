/**
 * The highlighter: a pen whose ink is wide, translucent and of the highlighter brush, so the board stacks
 * it beneath everything else (docs/ARCHITECTURE.md "Highlighters and fills"). It keeps no pressure: a
 * translucent stroke drawn in runs of varying width would darken where the runs overlap.
 */

import { PenTool } from './pen.js';

/** A highlighter's width in board pixels: wide enough to mark a line of handwriting. */
export const HIGHLIGHTER_WIDTH = 16;
/** A highlighter's alpha (about 40 %): what it marks shows through. */
export const HIGHLIGHTER_ALPHA = 0x66;

/**
 * The highlighter's colour for a pen colour: the same hue at the highlighter's alpha.
 * @param {number} colour 0xRRGGBBAA
 */
export function highlighterColour(colour) {
  return ((colour & 0xffffff00) | HIGHLIGHTER_ALPHA) >>> 0;
}

/** The highlighter tool. */
export class HighlighterTool extends PenTool {
  name = 'highlighter';

  /** @override */
  style() {
    return { colour: highlighterColour(this.context.settings.colour), width: HIGHLIGHTER_WIDTH, brush: /** @type {const} */ ('highlighter'), pressure: false };
  }
}
