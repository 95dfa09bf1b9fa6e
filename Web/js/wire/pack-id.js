// A pack's identity, as PackID(of:) in Sources/InkwellWire/Pack/PackID.swift: the SHA-256 of its encoded
// bytes, signature included.
//
// Derived, never chosen: the server and every receiver compute it from what they hold, so no client can
// make another pack's bytes look "already stored" by pushing a guessed id first. Ed25519 signing is
// deterministic, so the same changes signed again by the same key are the same bytes with the same id,
// and a pack pushed again after its ack was lost is stored once.

import { sha256 } from './digest.js';

/**
 * @param {Uint8Array} bytes an encoded pack
 * @returns {Promise<Uint8Array>} 32 bytes
 */
export function packId(bytes) {
  return sha256(bytes);
}
