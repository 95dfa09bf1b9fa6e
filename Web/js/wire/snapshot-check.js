// A device's word that it checked a room snapshot and holds it, as Sources/InkwellWire/Snapshot/
// SnapshotCheck.swift: signed by one of its author keys in the room, so that no connection can say it in
// another author's name. The server drops the packs a snapshot stands for only once every author seen
// recently in the room has said so.
//
// The signature covers "inkwell-snapshot-checked/1" ‖ 0 ‖ u32(len room) ‖ room ‖ snapshot id (16), the
// integer big-endian: the layout of the seals' associated data (seal.js), under a label no other
// signature starts with.

import { WireError } from './errors.js';
import { utf8Encode } from './bytes.js';
import { packSigner, replicaOfKey, verifySignature } from './author-key.js';

/**
 * @typedef {import('./author-key.js').SigningKey} SigningKey
 * @typedef {{room: string, snapshot: Uint8Array, author: Uint8Array, signature: Uint8Array}} SnapshotCheck
 */

const LABEL = new TextEncoder().encode('inkwell-snapshot-checked/1');

/**
 * What a check's signature covers.
 * @param {string} room @param {Uint8Array} snapshot the snapshot's 16-byte id
 */
export function snapshotCheckInput(room, snapshot) {
  const name = utf8Encode(room, 'snapshot_checked.room');
  if (!(snapshot instanceof Uint8Array) || snapshot.length !== 16) throw WireError.invalidField('snapshot_checked.snapshot');
  const input = new Uint8Array(LABEL.length + 1 + 4 + name.length + 16);
  input.set(LABEL);
  new DataView(input.buffer).setUint32(LABEL.length + 1, name.length);
  input.set(name, LABEL.length + 5);
  input.set(snapshot, LABEL.length + 5 + name.length);
  return input;
}

/**
 * The check of `snapshot` in `room`, signed by `key` (the page's timeline key for the room).
 * @param {string} room @param {Uint8Array} snapshot @param {SigningKey} key
 * @returns {Promise<SnapshotCheck>}
 */
export async function signSnapshotCheck(room, snapshot, key) {
  const signer = await packSigner(key);
  const signature = await signer.sign(snapshotCheckInput(room, snapshot));
  if (!(signature instanceof Uint8Array) || signature.length !== 64) throw WireError.invalidField('snapshot_checked.signature');
  return { room, snapshot, author: signer.publicKey, signature };
}

/**
 * The replica whose key signed a check, when its signature verifies; null otherwise.
 * @param {SnapshotCheck} check
 * @returns {Promise<string | null>}
 */
export async function snapshotCheckSigner({ room, snapshot, author, signature }) {
  if (author.length !== 32 || signature.length !== 64) return null;
  const verifies = await verifySignature(author, snapshotCheckInput(room, snapshot), signature);
  return verifies ? replicaOfKey(author) : null;
}
