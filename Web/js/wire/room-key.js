// A room's key: 32 random bytes that seal its packs, presence and blobs with AES-256-GCM (seal.js). It
// travels only in the fragment of a link (`#key=…`, never sent to a server) and in the stores of the
// devices that opened one. Its id, the first 8 bytes of SHA-256("inkwell-room-key-id/1" ‖ key), is
// written in every sealed pack, so a holder of another key says "wrong key" rather than "tampered".

import { WireError } from './errors.js';
import { base64urlDecode, base64urlEncode } from './base64url.js';
import { sha256, subtleCrypto } from './digest.js';

/**
 * @typedef {{bytes: Uint8Array, text: string, id: Uint8Array, key: CryptoKey}} RoomKey the raw key, its
 *   text form (base64url, 43 characters), its 8-byte id, and the WebCrypto key that seals with it
 */

export const ROOM_KEY_BYTES = 32;
export const KEY_ID_BYTES = 8;
const KEY_ID_PREFIX = new TextEncoder().encode('inkwell-room-key-id/1');

/**
 * New key bytes.
 * @param {(bytes: Uint8Array) => Uint8Array} [fillRandom] the platform's secure source unless a test
 *   injects a seeded one
 */
export function newRoomKeyBytes(fillRandom = (bytes) => crypto.getRandomValues(bytes)) {
  return fillRandom(new Uint8Array(ROOM_KEY_BYTES));
}

/** The text form of key bytes. @param {Uint8Array} bytes */
export function roomKeyText(bytes) {
  return base64urlEncode(bytes);
}

/**
 * The bytes of a key's text form, or null when it is not one.
 * @param {unknown} text
 * @returns {Uint8Array | null}
 */
export function parseRoomKey(text) {
  const bytes = base64urlDecode(text);
  return bytes !== null && bytes.length === ROOM_KEY_BYTES ? bytes : null;
}

/**
 * The key's id.
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>} 8 bytes
 */
export async function roomKeyId(bytes) {
  const input = new Uint8Array(KEY_ID_PREFIX.length + bytes.length);
  input.set(KEY_ID_PREFIX);
  input.set(bytes, KEY_ID_PREFIX.length);
  return (await sha256(input)).slice(0, KEY_ID_BYTES);
}

/**
 * A key ready to seal and open: its id and an unextractable WebCrypto AES-GCM key.
 * @param {Uint8Array | string} key the bytes, or their text form
 * @returns {Promise<RoomKey>}
 * @throws {WireError} `invalidField('room key')` for anything but 32 bytes
 */
export async function openRoomKey(key) {
  const bytes = typeof key === 'string' ? parseRoomKey(key) : key;
  if (!(bytes instanceof Uint8Array) || bytes.length !== ROOM_KEY_BYTES) throw WireError.invalidField('room key');
  const cryptoKey = await subtleCrypto().importKey('raw', bytes, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
  return { bytes: bytes.slice(), text: roomKeyText(bytes), id: await roomKeyId(bytes), key: cryptoKey };
}
