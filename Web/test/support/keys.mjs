// Ed25519 keys made from fixed 32-byte seeds through WebCrypto, so that tests sign with known keys and
// get the same bytes every run. Plain ES, no node imports: browser harness pages use it too.
//
// WebCrypto cannot make a key from a seed directly: the seed goes in a PKCS#8 document (RFC 8410: this
// fixed DER prefix, then the 32 bytes), and the public half comes out of the private key's JWK.

import { replicaOfKey } from '../../js/wire/author-key.js';
import { fromHex } from '../../js/wire/bytes.js';

/** The DER of a PKCS#8 Ed25519 private key, up to its 32-byte seed. */
export const PKCS8_ED25519_PREFIX = fromHex('302e020100300506032b657004220420');

const ED25519 = { name: 'Ed25519' };

/**
 * A seed of 32 bytes: hex, or a byte repeated.
 * @param {string | number} value
 */
export function seedBytes(value) {
  return typeof value === 'number' ? new Uint8Array(32).fill(value) : fromHex(value);
}

/**
 * The key pair of a seed, its private half unextractable as the page makes them.
 * @param {Uint8Array} seed
 * @returns {Promise<CryptoKeyPair>}
 */
export async function keyPairFromSeed(seed) {
  const pkcs8 = new Uint8Array(PKCS8_ED25519_PREFIX.length + 32);
  pkcs8.set(PKCS8_ED25519_PREFIX);
  pkcs8.set(seed, PKCS8_ED25519_PREFIX.length);
  const extractable = await crypto.subtle.importKey('pkcs8', pkcs8, ED25519, true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', extractable);
  const publicKey = await crypto.subtle.importKey('raw', base64url(/** @type {string} */ (jwk.x)), ED25519, true, ['verify']);
  const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, ED25519, false, ['sign']);
  return { privateKey, publicKey };
}

/**
 * A test author: the key pair of a seed, its raw public key and the replica it owns.
 * @param {string | number} seed hex, or a byte repeated 32 times
 * @returns {Promise<{keys: CryptoKeyPair, publicKey: Uint8Array, replica: string}>}
 */
export async function testAuthor(seed) {
  const keys = await keyPairFromSeed(seedBytes(seed));
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey));
  return { keys, publicKey, replica: await replicaOfKey(publicKey) };
}

/**
 * Key pairs from seeds 1, 2, 3, …: a store's `generateKey` that makes the same timelines every run.
 * @param {number} [first]
 */
export function seededKeys(first = 1) {
  let next = first;
  return () => keyPairFromSeed(seedBytes(next++));
}

/** @param {string} text */
function base64url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}
