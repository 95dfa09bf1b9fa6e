// SHA-256 and the platform's WebCrypto, which signs and verifies packs.
//
// Browsers give `crypto.subtle` only to secure contexts (https, or a page from localhost): a page served
// over plain http from another host cannot sign packs, and says so rather than failing later.

/** The platform's SubtleCrypto. @returns {SubtleCrypto} */
export function subtleCrypto() {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new Error('WebCrypto (crypto.subtle) is not available: the page must be served over https or from localhost');
  }
  return subtle;
}

/**
 * The SHA-256 of `bytes`.
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>} 32 bytes
 */
export async function sha256(bytes) {
  return new Uint8Array(await subtleCrypto().digest('SHA-256', bytes));
}
