// What a part of a room snapshot claims in its signed envelope, as Sources/InkwellWire/Snapshot/
// SnapshotCover.swift: which snapshot it belongs to, the server log position it stands for, and exactly
// which changes the whole snapshot stands for (its cut: for each replica, seqs 1 through `seq`, and the
// stamp of the last), holding those of them that still matter.
//
// The cover is outside the seal, so a relay groups parts and knows what a snapshot stands for without the
// room's key; only the key's holders check the claim against the changes (snapshot-assembly.js).

import { WireError } from './errors.js';
import { bytesEqual, fromHex, toHex } from './bytes.js';
import { stampBits } from './change.js';
import { SNAPSHOT_LIMITS } from './protocol.js';

/**
 * @typedef {import('./change.js').Stamp} Stamp
 * @typedef {Map<string, {seq: number, stamp: Stamp}>} Cut by replica (hex): the last seq held, and its stamp
 * @typedef {{id: Uint8Array, position: number, cut: Cut, part: number, parts: number}} SnapshotCover
 */

export const SnapshotLimits = SNAPSHOT_LIMITS;

/**
 * Reads and checks a decoded cover, as Swift's `SnapshotCover(wire:)`: a 16-byte id, a position of at
 * least 1, one to `maximumParts` parts with this one among them, and a cut of one to `maximumTimelines`
 * distinct 16-byte replicas with seqs of at least 1. The cut may stand for many more changes than the parts
 * hold: the others stopped mattering.
 * @param {Record<string, any>} wire the envelope's `snapshot` field
 * @returns {SnapshotCover}
 * @throws {WireError} `invalidField('snapshot.…')`, `unrepresentable` for a position or seq past 2^53 − 1
 * - Complexity: O(timelines).
 */
export function readCover(wire) {
  if (wire.id.length !== 16) throw WireError.invalidField('snapshot.id');
  if (wire.position === 0) throw WireError.invalidField('snapshot.position');
  if (typeof wire.position !== 'number') throw WireError.unrepresentable('snapshot.position');
  if (wire.parts < 1 || wire.parts > SnapshotLimits.maximumParts || wire.part >= wire.parts) {
    throw WireError.invalidField('snapshot.parts');
  }
  if (wire.cut.length === 0 || wire.cut.length > SnapshotLimits.maximumTimelines) throw WireError.invalidField('snapshot.cut');
  /** @type {Cut} */
  const cut = new Map();
  for (const entry of wire.cut) {
    const seq = entry.seq;
    const replica = entry.replica.length === 16 ? toHex(entry.replica) : null;
    if (replica === null || seq === 0 || (typeof seq === 'bigint' && seq > MAXIMUM_SEQ) || cut.has(replica)) {
      throw WireError.invalidField('snapshot.cut');
    }
    // A page counts seqs in numbers: one past 2^53 − 1 it cannot hold exactly.
    if (typeof seq === 'bigint') throw WireError.unrepresentable('snapshot.cut');
    const bits = entry.stamp;
    cut.set(replica, { seq: /** @type {number} */ (seq), stamp: { wall: Number(bits >> 16n), counter: Number(bits & 0xffffn) } });
  }
  return { id: wire.id, position: wire.position, cut, part: wire.part, parts: wire.parts };
}

/**
 * The cover as an envelope carries it: the cut sorted by replica.
 * @param {SnapshotCover} cover
 * @returns {Record<string, any>}
 */
export function coverMessage({ id, position, cut, part, parts }) {
  const replicas = [...cut.keys()].sort();
  return {
    id,
    position,
    cut: replicas.map((replica) => {
      const { seq, stamp } = /** @type {{seq: number, stamp: Stamp}} */ (cut.get(replica));
      return { replica: fromHex(replica, 'snapshot.cut'), seq, stamp: stampBits(stamp) };
    }),
    part,
    parts,
  };
}

/**
 * Whether `other` is another part of the same snapshot: the same id, position, cut and number of parts.
 * @param {SnapshotCover} cover @param {SnapshotCover} other
 */
export function isSibling(cover, other) {
  return bytesEqual(cover.id, other.id) && cover.position === other.position && cover.parts === other.parts && sameCut(cover.cut, other.cut);
}

/** The seq through which `cut` holds `replica`'s changes: 0 when it holds none. @param {Cut} cut @param {string} replica */
export function cutSeq(cut, replica) {
  return cut.get(replica)?.seq ?? 0;
}

/** @param {Cut} a @param {Cut} b */
function sameCut(a, b) {
  if (a.size !== b.size) return false;
  for (const [replica, entry] of a) {
    const other = b.get(replica);
    if (other === undefined || other.seq !== entry.seq || other.stamp.wall !== entry.stamp.wall || other.stamp.counter !== entry.stamp.counter) return false;
  }
  return true;
}

/** Swift's `WireLimits.maximumSeq`, Int64.max. */
const MAXIMUM_SEQ = (1n << 63n) - 1n;
