// Small byte helpers shared by the codecs: hex for ids, strict UTF-8 for names.

import { WireError } from './errors.js';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * Lowercase hex, two digits a byte (the form of replica ids in JSON).
 * @param {Uint8Array} bytes
 */
export function toHex(bytes) {
  let text = '';
  for (let index = 0; index < bytes.length; index++) text += HEX[bytes[index]];
  return text;
}

/**
 * Parses hex (either case); throws `invalidField(name)` for anything else.
 * @param {string} text
 * @param {string} [name]
 */
export function fromHex(text, name = 'hex') {
  if (typeof text !== 'string' || text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) {
    throw WireError.invalidField(name);
  }
  const bytes = new Uint8Array(text.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = parseInt(text.substr(index * 2, 2), 16);
  return bytes;
}

/** @param {Uint8Array} a @param {Uint8Array} b */
export function bytesEqual(a, b) {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

const encoder = new TextEncoder();
// Strict, and keeping a leading BOM: the bytes that come in are the bytes that go out.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * UTF-8 bytes of a string; a lone surrogate (which no Swift string can hold) is refused.
 * @param {string} text
 * @param {string} name
 */
export function utf8Encode(text, name) {
  if (typeof text !== 'string' || !isWellFormed(text)) throw WireError.invalidField(name);
  return encoder.encode(text);
}

/**
 * Decodes UTF-8, returning `null` when the bytes are not valid UTF-8.
 * @param {Uint8Array} bytes
 */
export function utf8Decode(bytes) {
  if (bytes.length === 0) return '';
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** The UTF-8 length of a well-formed string, without allocating. @param {string} text */
export function utf8Length(text) {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) length += 1;
    else if (unit < 0x800) length += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      length += 4;
      index++;
    } else length += 3;
  }
  return length;
}

/** @param {string} text */
function isWellFormed(text) {
  if (typeof text.isWellFormed === 'function') return text.isWellFormed();
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}
