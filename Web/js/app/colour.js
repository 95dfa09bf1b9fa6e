/**
 * Colours as the board stores them (`0xRRGGBBAA` numbers) and as CSS and `<input type=color>` want them.
 */

/**
 * `#rrggbb`, or `#rrggbbaa` when not opaque: the same text as Swift's `Colour.hex`.
 * @param {number} rgba
 * @returns {string}
 */
export function colourHex(rgba) {
  const full = (rgba >>> 0).toString(16).padStart(8, '0');
  return '#' + ((rgba & 0xff) === 0xff ? full.slice(0, 6) : full);
}

/**
 * The colour a `#rgb`, `#rrggbb` or `#rrggbbaa` text names, or null.
 * @param {string} text
 * @returns {number | null}
 */
export function parseColour(text) {
  if (typeof text !== 'string') return null;
  let hex = text.trim().replace(/^#/, '');
  if (/^[0-9a-fA-F]{3}$/.test(hex)) hex = [...hex].map((digit) => digit + digit).join('');
  if (/^[0-9a-fA-F]{6}$/.test(hex)) hex += 'ff';
  if (!/^[0-9a-fA-F]{8}$/.test(hex)) return null;
  return parseInt(hex, 16) >>> 0;
}

/** The channels of a colour, 0–255 each. @param {number} rgba */
export function channels(rgba) {
  return { red: (rgba >>> 24) & 0xff, green: (rgba >>> 16) & 0xff, blue: (rgba >>> 8) & 0xff, alpha: rgba & 0xff };
}

/**
 * The CSS colour for drawing ink. In the dark theme, dark inks (black pen on a black board would vanish)
 * are drawn with their lightness mirrored, keeping the hue: black becomes white, navy becomes light blue,
 * bright colours barely move. The stored colour never changes; exports use it as is.
 * @param {number} rgba
 * @param {'light' | 'dark'} theme
 * @returns {string}
 */
export function inkStyle(rgba, theme) {
  let { red, green, blue, alpha } = channels(rgba);
  if (theme === 'dark') [red, green, blue] = mirrorLightness(red, green, blue);
  return alpha === 255 ? `rgb(${red} ${green} ${blue})` : `rgb(${red} ${green} ${blue} / ${round(alpha / 255)})`;
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}

/** HSL lightness L becomes 1 − L when L < 0.5; hue and saturation stay. */
function mirrorLightness(red, green, blue) {
  const r = red / 255;
  const g = green / 255;
  const b = blue / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  if (lightness >= 0.5) return [red, green, blue];
  // Mirroring L about 0.5 maps each channel c to c + (1 − max − min): the chroma is kept.
  const shift = 1 - max - min;
  return [r + shift, g + shift, b + shift].map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255));
}
