// Cuts queued changes into packs to push, as Swift's `OutboxPlanner`
// (Sources/InkwellClient/Session/OutboxPlanner.swift): the same queue always gives the same packs.
//
// A pack holds one room's changes of one replica, since that replica's key signs it. Timelines come in the
// order of their oldest queued change, and each one's changes in queue order, cut into a new pack whenever
// the next change would break a limit. Signed again by the same key, the same changes are the same bytes
// with the same id (Ed25519 is deterministic), so a pack planned again after a lost ack is stored once.

import { utf8Length } from '../wire/bytes.js';

/**
 * A change waiting in the outbox: its id, its room and its encoded bytes.
 * @typedef {{key: string, room: string, id: {replica: string, seq: number}, bytes: Uint8Array}} QueuedChange
 * @typedef {{room: string, replica: string, name: string, changes: QueuedChange[]}} PlannedPack `replica`:
 *   the timeline whose key signs it; `name`: its first change's key, which tells it from the other packs in
 *   flight until it is signed and its id is known
 */

/** What the envelope, its signature and deflate may add to the entries' bytes (as Swift's `envelopeReserve`). */
export const ENVELOPE_RESERVE = 1_024;

/**
 * How big one pack may be. The byte limit stays well under the server's 1 MiB WebSocket frame, because a
 * browser sends each message as one frame; a single change larger than the limit still travels alone.
 */
export const DEFAULT_PACK_LIMITS = Object.freeze({ maximumChanges: 512, maximumBytes: 512 << 10 });

/**
 * An upper bound on what a change adds to a pack's body: its bytes, its room's, and protobuf framing.
 * @param {QueuedChange} change
 */
export function entryBytes(change) {
  return change.bytes.length + utf8Length(change.room) + 16;
}

/**
 * Cuts `queued` (oldest first, none already in flight) into at most `maximumPacks` packs of one room,
 * each of one replica.
 * @param {string} room
 * @param {QueuedChange[]} queued
 * @param {{maximumChanges: number, maximumBytes: number}} [limits]
 * @param {number} [maximumPacks]
 * @returns {PlannedPack[]}
 * - Complexity: O(q) for q queued changes.
 */
export function planPacks(room, queued, limits = DEFAULT_PACK_LIMITS, maximumPacks = Infinity) {
  /** @type {PlannedPack[]} */
  const packs = [];
  if (maximumPacks <= 0) return packs;
  /** @type {Map<string, QueuedChange[]>} in the order of each timeline's oldest change */
  const timelines = new Map();
  for (const change of queued) {
    const timeline = timelines.get(change.id.replica);
    if (timeline === undefined) timelines.set(change.id.replica, [change]);
    else timeline.push(change);
  }
  const budget = Math.max(limits.maximumBytes - ENVELOPE_RESERVE, 1);
  for (const [replica, changes] of timelines) {
    /** @type {QueuedChange[]} */
    let current = [];
    let bytes = 0;
    const cut = () => {
      packs.push(plannedPack(room, replica, current));
      current = [];
      bytes = 0;
      return packs.length >= maximumPacks;
    };
    for (const change of changes) {
      const size = entryBytes(change);
      if (current.length > 0 && (current.length >= limits.maximumChanges || bytes + size > budget) && cut()) {
        return packs;
      }
      current.push(change);
      bytes += size;
    }
    if (current.length > 0 && cut()) return packs;
  }
  return packs;
}

/**
 * The pack holding exactly `changes` (all of `replica`) of `room`.
 * @param {string} room
 * @param {string} replica
 * @param {QueuedChange[]} changes
 * @returns {PlannedPack}
 */
function plannedPack(room, replica, changes) {
  return { room, replica, name: changes[0].key, changes };
}
