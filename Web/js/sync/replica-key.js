// A new timeline's key and id: each replica a page writes (one per room and tab) is owned by an Ed25519
// key pair made for it, and its id is derived from the public key (wire/author-key.js), so no random
// replica ids any more. The private half is made unextractable: it can sign, never leave the browser.
// Stores keep the CryptoKeyPair itself (IndexedDB clones CryptoKey objects) with the timeline's record.

import { replicaOfKey } from '../wire/author-key.js';
import { subtleCrypto } from '../wire/digest.js';

/**
 * @param {() => Promise<CryptoKeyPair>} generateKey
 * @returns {Promise<{replica: string, keys: CryptoKeyPair}>}
 */
export async function newReplicaRecord(generateKey) {
  const keys = await generateKey();
  const publicKey = new Uint8Array(await subtleCrypto().exportKey('raw', keys.publicKey));
  return { replica: await replicaOfKey(publicKey), keys };
}
