/**
 * The paint a "Fill" puts inside ink: the chosen colour, translucent (about 35 %) so that whatever the
 * shape covers still shows through it.
 */

/** A fill's alpha: 0x59 / 0xff is about 35 %. */
export const FILL_ALPHA = 0x59;

/**
 * The fill for a chosen colour: its hue at the fill's alpha.
 * @param {number} colour 0xRRGGBBAA
 */
export function fillColour(colour) {
  return ((colour & 0xffffff00) | FILL_ALPHA) >>> 0;
}
