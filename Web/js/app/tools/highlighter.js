/**
 * The highlighter: a pen whose ink is wide (four times the pen width picked), translucent and of the highlighter brush, so the board stacks
 * it beneath everything else (docs/ARCHITECTURE.md "Highlighters and fills"). It keeps no pressure: a
 * translucent stroke drawn in runs of varying width would darken where the runs overlap.
 */

import { MAXIMUM_WIDTH } from '../settings.js';
import { PenTool } from './pen.js';

/** A highlighter's width per pixel of the pen's: at the pen's default 4, 16, a line of handwriting. */
export const HIGHLIGHTER_SCALE = 4;
/** The narrowest highlighter, in board pixels: thinner, it would read as a translucent pen. */
export const MINIMUM_HIGHLIGHTER_WIDTH = 8;

/**
 * The highlighter's width for the pen width picked: four times as wide, within 8 and the widest pen.
 * @param {number} width the pen's, in board pixels
 */
export function highlighterWidth(width) {
  return Math.min(MAXIMUM_WIDTH, Math.max(MINIMUM_HIGHLIGHTER_WIDTH, width * HIGHLIGHTER_SCALE));
}
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
    return { colour: highlighterColour(this.context.settings.colour), width: highlighterWidth(this.context.settings.width), brush: /** @type {const} */ ('highlighter'), pressure: false };
  }
}
