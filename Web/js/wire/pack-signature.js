// A pack's signature, as Sources/InkwellWire/Pack/PackCodec+Signature.swift: Ed25519 by the author's key
// over "inkwell-pack-signature/1" and every byte of the encoded pack before the signature field, which is
// always the last: `unsigned ‖ 0x4A 0x40 ‖ 64 bytes` (field 9, length-delimited, length 64).
//
// The prefix keeps a pack signature from ever being taken for a signature of anything else the same key
// might sign. Placing the signature last, and checking that it is there, means the bytes a receiver
// verifies are exactly the bytes every field was parsed from.

import { WireError } from './errors.js';
import { bytesEqual } from './bytes.js';
import { packSigner, verifySignature } from './author-key.js';

/** @typedef {import('./author-key.js').SigningKey} SigningKey */

const SIGNING_PREFIX = new TextEncoder().encode('inkwell-pack-signature/1');
/** The key of the signature field: field 9, length-delimited; then its length, 64. */
const SIGNATURE_KEY = [0x4a, 0x40];
/** The signature field as it ends every pack. */
export const SIGNATURE_FIELD_BYTES = 2 + 64;

/**
 * Appends the signature field to an encoded pack that has none yet.
 * @param {Uint8Array} unsigned the encoded envelope, fields 2–8
 * @param {SigningKey} key
 * @returns {Promise<Uint8Array>}
 */
export async function signPack(unsigned, key) {
  const signer = await packSigner(key);
  const signature = await signer.sign(signingInput(unsigned));
  if (!(signature instanceof Uint8Array) || signature.length !== 64) throw WireError.invalidField('pack.signature');
  const bytes = new Uint8Array(unsigned.length + SIGNATURE_FIELD_BYTES);
  bytes.set(unsigned);
  bytes.set(SIGNATURE_KEY, unsigned.length);
  bytes.set(signature, unsigned.length + 2);
  return bytes;
}

/**
 * Checks that `bytes` end with their signature field and that it holds the `signature` they parsed to.
 * @param {Uint8Array} bytes
 * @param {Uint8Array} signature the envelope's field 9
 * @throws {WireError} `invalidField('pack.signature')` for a missing, truncated or misplaced signature
 */
export function checkSignaturePlacement(bytes, signature) {
  const end = bytes.length - SIGNATURE_FIELD_BYTES;
  const placed =
    end >= 0 &&
    bytes[end] === SIGNATURE_KEY[0] &&
    bytes[end + 1] === SIGNATURE_KEY[1] &&
    signature.length === 64 &&
    bytesEqual(signature, bytes.subarray(end + 2));
  if (!placed) throw WireError.invalidField('pack.signature');
}

/**
 * Whether the signature that ends `bytes` is `author`'s over everything before it.
 * @param {Uint8Array} bytes an encoded pack whose signature placement was checked
 * @param {Uint8Array} author
 * @returns {Promise<boolean>}
 */
export function verifyPackSignature(bytes, author) {
  const end = bytes.length - SIGNATURE_FIELD_BYTES;
  return verifySignature(author, signingInput(bytes.subarray(0, end)), bytes.subarray(end + 2));
}

/** The bytes a signature covers: the prefix, then the pack before its signature field. @param {Uint8Array} unsigned */
function signingInput(unsigned) {
  const input = new Uint8Array(SIGNING_PREFIX.length + unsigned.length);
  input.set(SIGNING_PREFIX);
  input.set(unsigned, SIGNING_PREFIX.length);
  return input;
}
