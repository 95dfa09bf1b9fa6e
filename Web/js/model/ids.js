// Identities and the total order, as Sources/InkwellSync/Identity and Sources/InkwellBoard/Model/StrokeID.swift.
//
// A replica id is 32 lowercase hex digits: comparing those strings compares the 16 bytes big-endian,
// exactly as Swift compares (high, low). Seqs and indexes are plain numbers (seqs stay far below 2^53).

import { compareStamps } from './stamp.js';

/** @typedef {import('./stamp.js').Stamp} Stamp */
/** @typedef {{replica: string, seq: number}} ChangeId */
/** @typedef {{replica: string, seq: number, index: number}} StrokeRef */
/**
 * The place of one operation in the total order: its change's stamp and id, and its index in the change.
 * `key` is the change's `changeKey`, carried so that registers can ask whether the change is active.
 * @typedef {{stamp: Stamp, replica: string, seq: number, index: number, key: string}} Position
 */

const REPLICA_PATTERN = /^[0-9a-fA-F]{32}$/;
const DIGITS = /^[0-9]+$/;
const MAX_INDEX = 0xffff_ffff;

/**
 * A fresh replica id: 16 random bytes as hex.
 * @param {(bytes: Uint8Array) => Uint8Array} [fillRandom] inject a seeded source in tests
 * @returns {string}
 */
export function newReplicaId(fillRandom = (bytes) => crypto.getRandomValues(bytes)) {
  const bytes = new Uint8Array(16);
  fillRandom(bytes);
  return bytesToHex(bytes);
}

/**
 * The replica id in canonical (lowercase) form, or null if it is not 32 hex digits.
 * @param {unknown} text
 * @returns {string | null}
 */
export function parseReplicaId(text) {
  return typeof text === 'string' && REPLICA_PATTERN.test(text) ? text.toLowerCase() : null;
}

/**
 * The 16 bytes of a replica id, big-endian.
 * @param {string} replica
 * @returns {Uint8Array}
 */
export function replicaBytes(replica) {
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(replica.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * Lowercase hex of bytes.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function bytesToHex(bytes) {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * A well-formed change id `{replica, seq}` in canonical form, or null.
 * @param {unknown} value
 * @returns {ChangeId | null}
 */
export function parseChangeId(value) {
  if (value === null || typeof value !== 'object') return null;
  const replica = parseReplicaId(value.replica);
  const seq = value.seq;
  if (replica === null || !Number.isSafeInteger(seq) || seq < 1) return null;
  return { replica, seq };
}

/**
 * A string naming a change, for use as a map key.
 * @param {ChangeId} id
 * @returns {string}
 */
export function changeKey(id) {
  return `${id.replica}-${id.seq}`;
}

/**
 * A stroke's id: `<replica hex>-<seq>-<index>`, derived from the change that added it.
 * @param {ChangeId} change
 * @param {number} [index] the addStroke operation's index in the change
 * @returns {string}
 */
export function strokeId(change, index = 0) {
  return `${change.replica}-${change.seq}-${index}`;
}

/**
 * Parses a stroke id, as Swift's `StrokeID(_:)`; null if malformed.
 * @param {unknown} text
 * @returns {StrokeRef | null}
 */
export function parseStrokeId(text) {
  if (typeof text !== 'string') return null;
  const parts = text.split('-');
  if (parts.length !== 3 || !DIGITS.test(parts[1]) || !DIGITS.test(parts[2])) return null;
  const replica = parseReplicaId(parts[0]);
  const seq = Number(parts[1]);
  const index = Number(parts[2]);
  if (replica === null || !Number.isSafeInteger(seq) || seq < 1 || index > MAX_INDEX) return null;
  return { replica, seq, index };
}

/**
 * Canonical order of change ids: replica, then seq. For encodings, not causality.
 * @param {ChangeId} a
 * @param {ChangeId} b
 * @returns {number}
 */
export function compareChangeIds(a, b) {
  if (a.replica !== b.replica) return a.replica < b.replica ? -1 : 1;
  return a.seq - b.seq;
}

/**
 * Order of stroke ids: change id, then index.
 * @param {StrokeRef} a
 * @param {StrokeRef} b
 * @returns {number}
 */
export function compareStrokeRefs(a, b) {
  return compareChangeIds(a, b) || a.index - b.index;
}

/**
 * The strict total order of changes that every replica agrees on: (stamp, replica, seq).
 * @param {{id: ChangeId, stamp: Stamp}} a
 * @param {{id: ChangeId, stamp: Stamp}} b
 * @returns {number}
 */
export function compareChanges(a, b) {
  return compareStamps(a.stamp, b.stamp) || compareChangeIds(a.id, b.id);
}

/**
 * The total order of operations: (stamp, replica, seq, index). Last-writer-wins registers compare these.
 * @param {Position} a
 * @param {Position} b
 * @returns {number}
 */
export function comparePositions(a, b) {
  return compareStamps(a.stamp, b.stamp) || compareChangeIds(a, b) || a.index - b.index;
}

/**
 * The position of the `index`-th operation of a change.
 * @param {Stamp} stamp
 * @param {ChangeId} change
 * @param {number} index
 * @returns {Position}
 */
export function position(stamp, change, index) {
  return { stamp, replica: change.replica, seq: change.seq, index, key: changeKey(change) };
}
