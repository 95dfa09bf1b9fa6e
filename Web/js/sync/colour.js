// Colours as the wire carries them: one 32-bit RGBA number (Swift's `Colour.rgba`), red in the high byte.

/**
 * A colour as 0xRRGGBBAA; accepts that number, or CSS hex `#rgb`, `#rrggbb` or `#rrggbbaa`.
 * @param {number | string} colour
 * @returns {number}
 * @throws {TypeError} for anything else
 */
export function rgba(colour) {
  if (Number.isInteger(colour) && colour >= 0 && colour <= 0xffff_ffff) return /** @type {number} */ (colour);
  if (typeof colour === 'string') {
    let hex = colour.startsWith('#') ? colour.slice(1) : colour;
    if (/^[0-9a-fA-F]{3}$/.test(hex)) hex = [...hex].map((digit) => digit + digit).join('');
    if (/^[0-9a-fA-F]{6}$/.test(hex)) hex += 'ff';
    if (/^[0-9a-fA-F]{8}$/.test(hex)) return parseInt(hex, 16) >>> 0;
  }
  throw new TypeError('a colour is a 32-bit RGBA number or #rrggbb[aa]');
}
