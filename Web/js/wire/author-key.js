// The Ed25519 key that owns a replica, as Sources/InkwellWire/Pack/AuthorKey.swift: only packs it signs
// may carry that replica's changes.
//
// The replica id is derived from the public key, the first 16 bytes of SHA-256("inkwell-replica/1" ‖ key),
// so a receiver checks authorship from the pack alone, with no server in the path; finding another key
// with the same replica costs 2^128 tries.

import { WireError } from './errors.js';
import { toHex } from './bytes.js';
import { sha256, subtleCrypto } from './digest.js';

const REPLICA_PREFIX = new TextEncoder().encode('inkwell-replica/1');
const ED25519 = { name: 'Ed25519' };

/**
 * What signs packs: the public key's 32 raw bytes (RFC 8032), and the signature of a message (64 bytes).
 * @typedef {{publicKey: Uint8Array, sign(message: Uint8Array): Promise<Uint8Array>}} PackSigner
 * @typedef {PackSigner | CryptoKeyPair} SigningKey a signer, or a WebCrypto Ed25519 key pair
 */

/**
 * The replica owned by an Ed25519 public key, as the page writes replica ids (32 lowercase hex digits).
 * @param {Uint8Array} publicKey 32 bytes
 * @returns {Promise<string>}
 */
export async function replicaOfKey(publicKey) {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) throw WireError.invalidField('pack.author');
  const input = new Uint8Array(REPLICA_PREFIX.length + 32);
  input.set(REPLICA_PREFIX);
  input.set(publicKey, REPLICA_PREFIX.length);
  return toHex((await sha256(input)).subarray(0, 16));
}

/**
 * A signer for `key`: a WebCrypto key pair (whose private half may be unextractable), or a signer as it is.
 * @param {SigningKey} key
 * @returns {Promise<PackSigner>}
 * @throws {WireError} `invalidField('pack.author')` when the public key is not 32 bytes
 */
export async function packSigner(key) {
  if (key === null || typeof key !== 'object') throw WireError.invalidField('pack.author');
  let signer;
  if (key.publicKey instanceof Uint8Array) {
    signer = /** @type {PackSigner} */ (key);
  } else {
    const pair = /** @type {CryptoKeyPair} */ (key);
    const publicKey = new Uint8Array(await subtleCrypto().exportKey('raw', pair.publicKey));
    signer = { publicKey, sign: (message) => signWith(pair.privateKey, message) };
  }
  if (signer.publicKey.length !== 32 || typeof signer.sign !== 'function') throw WireError.invalidField('pack.author');
  return signer;
}

/**
 * A new key pair for a replica; its private half cannot be exported, only used to sign.
 * @returns {Promise<CryptoKeyPair>}
 */
export async function generateAuthorKey() {
  return /** @type {CryptoKeyPair} */ (await subtleCrypto().generateKey(ED25519, false, ['sign', 'verify']));
}

/**
 * @param {CryptoKey} privateKey
 * @param {Uint8Array} message
 */
async function signWith(privateKey, message) {
  return new Uint8Array(await subtleCrypto().sign(ED25519, privateKey, message));
}

/**
 * Whether `signature` is `publicKey`'s over `message`. Bytes that are not a key do not verify.
 * @param {Uint8Array} publicKey
 * @param {Uint8Array} message
 * @param {Uint8Array} signature
 * @returns {Promise<boolean>}
 */
export async function verifySignature(publicKey, message, signature) {
  const subtle = subtleCrypto();
  try {
    const key = await subtle.importKey('raw', publicKey, ED25519, false, ['verify']);
    return await subtle.verify(ED25519, key, signature, message);
  } catch {
    return false;
  }
}
