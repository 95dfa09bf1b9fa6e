// End-to-end sealing with a room's key (room-key.js): AES-256-GCM, a fresh random 12-byte nonce per
// message, a 16-byte tag; the formats of docs/ACCESS-FORMATS.md, shared byte for byte with Swift.
//
// What is sealed, and what is bound to it as associated data (authenticated, not hidden):
// - a pack's body (the bytes a plain pack carries: the PackBody, deflated when `compression` says so),
//   bound to its room, its author's public key and its header (schema, compression, body size); the
//   nonce and key id travel in the envelope's `encryption`, and the signature covers all of it, so a
//   relay still checks authorship and room without the key. Moved into another room's pack, or re-signed
//   by another author, the body no longer authenticates.
// - a presence's fields but room and device, as an encoded SealedPresence, bound to room and device.
// - a blob, bound to its room.
// Sealed presence and blobs are nonce ‖ ciphertext ‖ tag.
//
// Opening tells apart what the page does next: `encrypted` (no key held: keep it for later),
// `unsupportedEncryption`, `wrongKey` (another key's id) and `tampered` (GCM refuses it): kept aside. A
// sealed pack is read in Swift's order (PackCodec+Seal.swift): no key, the scheme, an 8-byte key id, a
// 12-byte nonce, the declared size within the limit, a sealed body no larger than that size allows, the
// key id, then authentication.

import { WireError } from './errors.js';
import { bytesEqual, utf8Encode } from './bytes.js';
import { subtleCrypto } from './digest.js';
import { decodeMessage, encodeMessage } from './message.js';
import { WireLimits } from './limits.js';
import { KEY_ID_BYTES } from './room-key.js';
import * as schema from './schema.js';
import { presence } from './sync.js';

/** @typedef {import('./room-key.js').RoomKey} RoomKey */
/** @typedef {import('./sync.js').PresenceFrame} PresenceFrame */

/** The one scheme this code seals and opens with. */
export const SEAL_SCHEME = 'aes-256-gcm';
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

const PACK_CONTEXT = new TextEncoder().encode('inkwell-pack-seal/1');
const PRESENCE_CONTEXT = new TextEncoder().encode('inkwell-presence-seal/1');
const BLOB_CONTEXT = new TextEncoder().encode('inkwell-blob-seal/1');

/** A fresh nonce from the platform's secure source. */
export function randomNonce() {
  return crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
}

// Packs

/**
 * @typedef {{room: string, author: Uint8Array, schemaVersion: number, compression: number, bodySize: number}} PackHeader
 *   what a sealed body is bound to: the envelope's room and author and its header fields
 */

/**
 * The associated data of a pack's sealed body: "inkwell-pack-seal/1" ‖ 0 ‖ u32(len room) ‖ room ‖
 * author (32) ‖ u32(schema_version) ‖ u32(compression) ‖ u32(body_size), integers big-endian.
 * @param {PackHeader} header
 */
export function packAssociatedData({ room, author, schemaVersion, compression, bodySize }) {
  const name = utf8Encode(room, 'pack.room');
  return concat(PACK_CONTEXT, [0], u32(name.length), name, author, u32(schemaVersion), u32(compression), u32(bodySize));
}

/**
 * Seals the bytes a plain pack would carry in `body`.
 * @param {Uint8Array} body the encoded PackBody, deflated if the header says so
 * @param {PackHeader} header
 * @param {RoomKey} key
 * @param {Uint8Array} [nonce] fresh and random unless a test fixes it
 * @returns {Promise<{body: Uint8Array, encryption: {scheme: string, keyId: Uint8Array, nonce: Uint8Array}}>}
 *   the envelope's `body` (ciphertext ‖ tag) and `encryption`
 */
export async function sealPackBody(body, header, key, nonce = randomNonce()) {
  checkNonce(nonce);
  const sealed = await encrypt(key, nonce, packAssociatedData(header), body);
  return { body: sealed, encryption: { scheme: SEAL_SCHEME, keyId: key.id.slice(), nonce: nonce.slice() } };
}

/**
 * The most bytes a sealed body may have for a declared body size: deflate's worst case for any level
 * and window (zlib's deflateBound without its parameters: n + ⌈n/8⌉ + ⌈n/64⌉ + 5), plus the tag. A larger
 * body cannot be the sealing of a body of that size, whatever its compression.
 * @param {number} size
 */
export function maximumSealedBodyBytes(size) {
  return size + Math.floor((size + 7) / 8) + Math.floor((size + 63) / 64) + 5 + TAG_BYTES;
}

/**
 * Opens a sealed pack body.
 * @param {{body: Uint8Array, bodySize: number, encryption: {scheme: string, keyId: Uint8Array, nonce: Uint8Array}}} wire
 *   the envelope
 * @param {PackHeader} header
 * @param {RoomKey | null} key
 * @returns {Promise<Uint8Array>} what a plain pack would carry in `body`
 * @throws {WireError} `encrypted` (no key), `unsupportedEncryption`, `invalidField` (a key id or nonce of
 *   another size), `tooLarge`, `wrongKey`, `tampered`
 */
export async function openPackBody(wire, header, key) {
  const { scheme, keyId, nonce } = wire.encryption;
  // Without a key, whatever the scheme, it is kept for later as it always was: a holder of the key (or a
  // version that knows the scheme) may read it.
  if (key === null) throw WireError.encrypted();
  if (scheme !== SEAL_SCHEME) throw WireError.unsupportedEncryption();
  if (keyId.length !== KEY_ID_BYTES) throw WireError.invalidField('pack.encryption.key_id');
  if (nonce.length !== NONCE_BYTES) throw WireError.invalidField('pack.encryption.nonce');
  if (header.bodySize > WireLimits.maximumPackBodyBytes) throw WireError.tooLarge('pack body');
  if (wire.body.length > maximumSealedBodyBytes(header.bodySize)) throw WireError.tooLarge('sealed pack body');
  if (!bytesEqual(keyId, key.id)) throw WireError.wrongKey();
  return decrypt(key, nonce, packAssociatedData(header), wire.body);
}

// Presence

/**
 * The associated data of a sealed presence: "inkwell-presence-seal/1" ‖ 0 ‖ u32(len room) ‖ room ‖ device (16).
 * @param {string} room @param {Uint8Array} device
 */
export function presenceAssociatedData(room, device) {
  const name = utf8Encode(room, 'presence.room');
  return concat(PRESENCE_CONTEXT, [0], u32(name.length), name, device);
}

/**
 * A presence frame with everything but its room and device sealed into `sealed`; those fields are left
 * empty, so the server relays what it cannot read.
 * @param {PresenceFrame} frame
 * @param {RoomKey} key
 * @param {Uint8Array} [nonce]
 * @returns {Promise<PresenceFrame>}
 */
export async function sealPresence(frame, key, nonce = randomNonce()) {
  checkNonce(nonce);
  const plain = encodeMessage(schema.SealedPresence, {
    name: frame.name,
    colour: frame.colour,
    cursorX: frame.hasCursor ? frame.cursorX : 0,
    cursorY: frame.hasCursor ? frame.cursorY : 0,
    hasCursor: frame.hasCursor,
    board: frame.ink != null ? frame.board : '',
    ink: frame.ink ?? null,
  });
  const sealed = await encrypt(key, nonce, presenceAssociatedData(frame.room, frame.device), plain);
  return {
    type: 'presence',
    room: frame.room,
    device: frame.device,
    name: '',
    colour: 0,
    cursorX: 0,
    cursorY: 0,
    hasCursor: false,
    board: '',
    ink: null,
    sealed: concat(nonce, sealed),
  };
}

/**
 * The presence a sealed frame holds, checked as a plain one is. Fields outside the seal are ignored: only
 * the sealed ones come from a holder of the key.
 * @param {PresenceFrame} frame
 * @param {RoomKey} key
 * @returns {Promise<PresenceFrame>} without `sealed`
 * @throws {WireError} `unsealed` for a presence that is not sealed, `tampered` when it does not open with
 *   `key` in this room for this device, or what decoding the opened fields throws
 */
export async function openPresence(frame, key) {
  const sealed = frame.sealed ?? new Uint8Array(0);
  if (sealed.length === 0) throw WireError.unsealed();
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw WireError.tampered();
  const plain = await decrypt(key, sealed.subarray(0, NONCE_BYTES), presenceAssociatedData(frame.room, frame.device), sealed.subarray(NONCE_BYTES));
  let fields;
  try {
    fields = decodeMessage(schema.SealedPresence, plain);
  } catch (error) {
    throw WireError.malformed('sealed presence', error);
  }
  return presence({ ...fields, room: frame.room, device: frame.device, sealed: new Uint8Array(0) });
}

// Blobs

/** The associated data of a sealed blob: "inkwell-blob-seal/1" ‖ 0 ‖ u32(len room) ‖ room. @param {string} room */
export function blobAssociatedData(room) {
  const name = utf8Encode(room, 'blob.room');
  return concat(BLOB_CONTEXT, [0], u32(name.length), name);
}

/**
 * A blob sealed for `room`: nonce ‖ ciphertext ‖ tag. Its address is the SHA-256 of these bytes, so the
 * server still checks what is uploaded.
 * @param {Uint8Array} plain @param {string} room @param {RoomKey} key @param {Uint8Array} [nonce]
 */
export async function sealBlob(plain, room, key, nonce = randomNonce()) {
  checkNonce(nonce);
  return concat(nonce, await encrypt(key, nonce, blobAssociatedData(room), plain));
}

/**
 * @param {Uint8Array} sealed @param {string} room @param {RoomKey} key
 * @throws {WireError} `tampered`
 */
export async function openBlob(sealed, room, key) {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw WireError.tampered();
  return decrypt(key, sealed.subarray(0, NONCE_BYTES), blobAssociatedData(room), sealed.subarray(NONCE_BYTES));
}

// AES-GCM

/** @param {RoomKey} key @param {Uint8Array} nonce @param {Uint8Array} data @param {Uint8Array} plain */
async function encrypt(key, nonce, data, plain) {
  const params = { name: 'AES-GCM', iv: nonce, additionalData: data, tagLength: TAG_BYTES * 8 };
  return new Uint8Array(await subtleCrypto().encrypt(params, key.key, plain));
}

/** @param {RoomKey} key @param {Uint8Array} nonce @param {Uint8Array} data @param {Uint8Array} sealed */
async function decrypt(key, nonce, data, sealed) {
  if (sealed.length < TAG_BYTES) throw WireError.tampered();
  const params = { name: 'AES-GCM', iv: nonce, additionalData: data, tagLength: TAG_BYTES * 8 };
  try {
    return new Uint8Array(await subtleCrypto().decrypt(params, key.key, sealed));
  } catch (error) {
    // WebCrypto's OperationError is GCM's "does not authenticate"; anything else is not the bytes' fault.
    if (error?.name === 'OperationError') throw WireError.tampered();
    throw error;
  }
}

/** @param {Uint8Array} nonce */
function checkNonce(nonce) {
  if (!(nonce instanceof Uint8Array) || nonce.length !== NONCE_BYTES) throw WireError.invalidField('nonce');
}

/** A big-endian u32. @param {number} value */
function u32(value) {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** @param {...(Uint8Array | number[])} parts */
function concat(...parts) {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
