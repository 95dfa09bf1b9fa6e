// Base64url without padding (RFC 4648 §5): the text form of capabilities and room keys, safe in a URL's
// path, query and fragment. As Sources/InkwellWire/Access/Base64URL.swift, decoding accepts only the
// canonical text of its bytes, so one capability or key has one spelling.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUES = new Map([...ALPHABET].map((letter, index) => [letter, index]));

/**
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function base64urlEncode(bytes) {
  let text = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk = (bytes[index] << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    const letters = Math.min(bytes.length - index, 3) + 1;
    for (let shift = 18, written = 0; written < letters; shift -= 6, written++) text += ALPHABET[(chunk >> shift) & 63];
  }
  return text;
}

/**
 * The bytes of `text`, or null when it is not canonical base64url without padding (a letter outside the
 * alphabet, a length that leaves one letter over, or bits set past the last byte).
 * @param {unknown} text
 * @returns {Uint8Array | null}
 */
export function base64urlDecode(text) {
  if (typeof text !== 'string' || text.length % 4 === 1) return null;
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let count = 0;
  let written = 0;
  for (const letter of text) {
    const value = VALUES.get(letter);
    if (value === undefined) return null;
    bits = ((bits << 6) | value) & 0xffffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes[written++] = (bits >> count) & 0xff;
    }
  }
  // Leftover bits must be zero: "AB" and "AC" would otherwise both mean one byte.
  if ((bits & ((1 << count) - 1)) !== 0) return null;
  return bytes;
}
