// What an image file is, from its first bytes rather than its name, as Swift's `ImageFormat`: a board shows
// only PNG, JPEG, GIF and WebP (raster formats every browser decodes, none that carries script).

/** The types a board shows, as Swift's `BoardImage.types`. */
export const IMAGE_TYPES = Object.freeze(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * The file's media type, or null when it is none a board shows.
 * @param {Uint8Array} bytes
 * @returns {string | null}
 */
export function imageType(bytes) {
  const starts = (prefix, at = 0) => prefix.every((byte, index) => bytes[at + index] === byte);
  const ascii = (text) => Array.from(text, (character) => character.charCodeAt(0));
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(ascii('GIF87a')) || starts(ascii('GIF89a'))) return 'image/gif';
  if (bytes.length >= 12 && starts(ascii('RIFF')) && starts(ascii('WEBP'), 8)) return 'image/webp';
  return null;
}
