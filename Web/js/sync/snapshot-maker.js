// Makes the room snapshot a page sends, as Swift's `SyncClient.makeSnapshot`
// (Sources/InkwellClient/Snapshots/SyncClient+Snapshots.swift): what it stands for, what it holds, and its
// parts, signed by the page's timeline key and sealed with the room's key in an encrypted room
// (snapshot-part.js lays them out as `PackCodec.encodeSnapshot` does).
//
// Its cut is what the connection knows came through the position (snapshot-tracker.js `required`, with this
// page's own acknowledged changes), the very thing a receiver holds it to; a timeline of this browser that
// another tab writes joins it as far as the page holds it without a gap (this tab cannot tell what the
// server acknowledged of it; standing for all of it is safe, since the snapshot then holds all of it). It
// holds the changes inside the cut, less those that stopped mattering by the board's rule over everything
// the page holds (room-inert.js).
//
// It is made only from the room's whole history: nothing kept aside that a later version could read, every
// change of the cut held, and no change held outside it but this page's own not yet acknowledged (those are
// still to be pushed). So whatever the server says of positions, a snapshot this page sends leaves out no
// change it holds that still matters: the rest of what it holds is pushed.

import { compareChangeIds } from '../model/ids.js';
import { changeHeader } from '../wire/change.js';
import { SCHEMA_VERSION } from '../wire/limits.js';
import { encodeSnapshot } from '../wire/snapshot-part.js';
import { isRefused, STAMP_AHEAD } from './pack-intake.js';
import { inertKeys } from './room-inert.js';

/**
 * @typedef {import('./snapshot-review.js').Held & {bytes: Uint8Array}} HeldChange a change the page holds:
 *   its bytes, and its JSON form (null when the page cannot read it)
 * @typedef {import('./store-records.js').AsideItem} AsideItem
 * @typedef {import('../wire/snapshot-cover.js').Cut} Cut
 * @typedef {{made: true, parts: Uint8Array[], cut: Cut, changes: number, held: number}
 *   | {made: false, reason: string}} Made `changes`: how many changes its cut stands for; `held`: how many
 *   it holds; `reason`: why none is made, in plain words
 */

/**
 * The room's snapshot standing for `position`, in parts; or why none is made.
 * @param {{
 *   room: string, position: number, within: Map<string, number>, needed: number,
 *   held: Map<string, HeldChange>, aside: AsideItem[], author: string, own: Set<string>,
 *   leased: Set<string>, waiting: Set<string>, signer: import('../wire/author-key.js').SigningKey,
 *   roomKey?: import('../wire/room-key.js').RoomKey | null, id?: Uint8Array, partBodyBytes?: number
 * }} room `within`: what came through the position, by replica (the tracker's `required`); `needed`: the
 *   fewest changes it may stand for; `held`: every change the page holds of the room, by key
 *   (`replica-seq`); `aside`: what it keeps aside; `author`: the timeline whose key (`signer`) signs it;
 *   `own`: this browser's timelines, `leased` those this page pushes, and `waiting` the keys of their
 *   changes not acknowledged yet; `id`: 16 random bytes, fresh unless a test gives them
 * @returns {Promise<Made>}
 * - Complexity: O(size of the changes held) to find what stopped mattering, plus one signature per part.
 */
export async function makeSnapshot({ room, position, within, needed, held, aside, author, own, leased, waiting, signer, roomKey = null, id, partBodyBytes }) {
  if (aside.some(keptForLater)) return refused('the page keeps aside changes it cannot read yet');
  const cut = new Map(within);
  for (const replica of own) {
    if (leased.has(replica)) continue;
    let seq = cut.get(replica) ?? 0;
    while (held.has(`${replica}-${seq + 1}`)) seq += 1;
    if (seq > 0) cut.set(replica, seq);
  }
  let total = 0;
  for (const seq of cut.values()) total += seq;
  if (total < needed) return refused(`its cut stands for ${total} changes, fewer than the ${needed} due`);
  const inside = [];
  for (const key of held.keys()) {
    const id = keyId(key);
    if (id.seq <= (cut.get(id.replica) ?? 0)) inside.push(id);
    else if (!waiting.has(key)) return refused(`the page holds ${key}, past what the cut stands for, and not its own to push`);
  }
  if (inside.length !== total) return refused('the page lacks changes the cut stands for');
  if ((cut.get(author) ?? 0) === 0) return refused('the page’s own timeline is not in the cut yet');
  /** @type {Cut} */
  const cover = new Map();
  for (const [replica, seq] of cut) {
    if (seq === 0) continue;
    const last = /** @type {HeldChange} */ (held.get(`${replica}-${seq}`));
    cover.set(replica, { seq, stamp: changeHeader(last.bytes).stamp });
  }
  const inert = inertKeys(held.values(), cut);
  const kept = inside.filter((one) => !inert.has(one.key)).sort(compareChangeIds);
  const changes = kept.map((one) => /** @type {HeldChange} */ (held.get(one.key)).bytes);
  let schemaVersion = 0;
  for (const bytes of changes) schemaVersion = Math.max(schemaVersion, changeHeader(bytes).schemaVersion);
  const parts = await encodeSnapshot(
    { room, position, cut: cover, changes, id: id ?? crypto.getRandomValues(new Uint8Array(16)), schemaVersion: changes.length === 0 ? SCHEMA_VERSION : schemaVersion },
    signer,
    { roomKey, partBodyBytes },
  );
  return { made: true, parts, cut: cover, changes: total, held: changes.length };
}

/**
 * Whether an item kept aside is one a later version (or the clock, or the room's key) could make readable:
 * a pack of a newer schema or sealed before the key, a change of a newer schema, a change stamped ahead.
 * A pack that failed verification is no part of the room's history, and a change of another type is held
 * as it came.
 * @param {AsideItem} item
 */
export function keptForLater(item) {
  if (isRefused(item)) return false;
  if (item.kind === 'pack' || item.reason === STAMP_AHEAD) return true;
  return item.schemaVersion > SCHEMA_VERSION;
}

/** @param {string} reason @returns {Made} */
function refused(reason) {
  return { made: false, reason };
}

/** A key `replica-seq` as an id, the key kept. @param {string} key */
function keyId(key) {
  const dash = key.lastIndexOf('-');
  return { key, replica: key.slice(0, dash), seq: Number(key.slice(dash + 1)) };
}
