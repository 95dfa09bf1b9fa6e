// Cuts queued changes into packs to push, as Swift's `OutboxPlanner`
// (Sources/InkwellClient/Session/OutboxPlanner.swift): the same queue always gives the same packs, with
// the same ids.
//
// Changes are taken in queue order and cut into a new pack whenever the next one would break a limit. A
// pack's id is derived from its room and change ids (wire/pack-id.js), so a pack pushed again after a lost
// ack is stored once by the server.

import { toHex, utf8Length } from '../wire/bytes.js';
import { packId } from '../wire/pack-id.js';

/**
 * A change waiting in the outbox: its id, its room and its encoded bytes.
 * @typedef {{key: string, room: string, id: {replica: string, seq: number}, bytes: Uint8Array}} QueuedChange
 * @typedef {{room: string, id: Uint8Array, hex: string, changes: QueuedChange[]}} PlannedPack
 */

/** What the envelope and deflate may add to the entries' bytes (as Swift's `envelopeReserve`). */
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
 * Cuts `queued` (oldest first, none already in flight) into at most `maximumPacks` packs of one room.
 * @param {string} room
 * @param {QueuedChange[]} queued
 * @param {{maximumChanges: number, maximumBytes: number}} [limits]
 * @param {number} [maximumPacks]
 * @returns {PlannedPack[]}
 * - Complexity: O(q) for q queued changes, plus O(c log c) per pack of c changes for its id.
 */
export function planPacks(room, queued, limits = DEFAULT_PACK_LIMITS, maximumPacks = Infinity) {
  /** @type {PlannedPack[]} */
  const packs = [];
  if (maximumPacks <= 0) return packs;
  const budget = Math.max(limits.maximumBytes - ENVELOPE_RESERVE, 1);
  /** @type {QueuedChange[]} */
  let current = [];
  let bytes = 0;
  const cut = () => {
    packs.push(plannedPack(room, current));
    current = [];
    bytes = 0;
    return packs.length >= maximumPacks;
  };
  for (const change of queued) {
    const size = entryBytes(change);
    if (current.length > 0 && (current.length >= limits.maximumChanges || bytes + size > budget) && cut()) {
      return packs;
    }
    current.push(change);
    bytes += size;
  }
  if (current.length > 0) cut();
  return packs;
}

/**
 * The pack holding exactly `changes` of `room`.
 * @param {string} room
 * @param {QueuedChange[]} changes
 * @returns {PlannedPack}
 */
export function plannedPack(room, changes) {
  const id = packId(room, changes.map((change) => change.id));
  return { room, id, hex: toHex(id), changes };
}
