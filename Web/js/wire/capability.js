// Room capabilities, as Sources/InkwellWire/Access/Capability.swift: a kind letter (`a` admin, `e` edit,
// `v` view) and 32 random bytes in base64url, 44 characters. Whoever holds one may do what its kind
// allows; the server keeps only its SHA-256 and compares hashes, so its store leaks no link. The letter
// lets a page know its own rights before it connects (view only, offline); the server never trusts it.

import { base64urlDecode, base64urlEncode } from './base64url.js';
import { sha256 } from './digest.js';

/**
 * @typedef {'admin' | 'edit' | 'view'} CapabilityKind
 * @typedef {{kind: CapabilityKind, text: string}} Capability
 */

/** The letter of each kind. */
export const CAPABILITY_LETTERS = Object.freeze({ admin: 'a', edit: 'e', view: 'v' });
/** A letter and the text of 32 bytes. */
export const CAPABILITY_LENGTH = 44;
/** Longer text in a frame is malformed, not merely unknown (Swift's `Capability.maximumLength`). */
export const MAXIMUM_CAPABILITY_BYTES = 128;
/** The size of a capability's hash (Swift's `Capability.hashBytes`). */
export const CAPABILITY_HASH_BYTES = 32;

const KINDS = new Map(Object.entries(CAPABILITY_LETTERS).map(([kind, letter]) => [letter, /** @type {CapabilityKind} */ (kind)]));

/**
 * Parses the text form.
 * @param {unknown} text
 * @returns {Capability | null} null unless it is a kind letter and 32 bytes in canonical base64url
 */
export function parseCapability(text) {
  if (typeof text !== 'string' || text.length !== CAPABILITY_LENGTH) return null;
  const kind = KINDS.get(text[0]);
  const bytes = base64urlDecode(text.slice(1));
  return kind !== undefined && bytes !== null && bytes.length === 32 ? { kind, text } : null;
}

/**
 * A new capability of `kind`.
 * @param {CapabilityKind} kind
 * @param {(bytes: Uint8Array) => Uint8Array} [fillRandom] the platform's secure source unless a test
 *   injects a seeded one
 * @returns {Capability}
 */
export function mintCapability(kind, fillRandom = (bytes) => crypto.getRandomValues(bytes)) {
  const letter = CAPABILITY_LETTERS[kind];
  if (letter === undefined) throw new TypeError(`no capability kind ${kind}`);
  return { kind, text: letter + base64urlEncode(fillRandom(new Uint8Array(32))) };
}

/**
 * SHA-256 of the text's UTF-8 bytes: all the server stores, and what it compares.
 * @param {string} text
 * @returns {Promise<Uint8Array>} 32 bytes
 */
export function capabilityHash(text) {
  return sha256(new TextEncoder().encode(text));
}
