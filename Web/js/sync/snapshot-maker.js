// Makes the room snapshot a page sends, as Swift's `SyncClient.makeSnapshot`
// (Sources/InkwellClient/Snapshots/SyncClient+Snapshots.swift): what it stands for, what it holds, and its
// parts, signed by the page's timeline key and sealed with the room's key in an encrypted room
// (snapshot-part.js lays them out as `PackCodec.encodeSnapshot` does).
//
// Its cut is what the connection knows came through the position (snapshot-tracker.js `required`, with this
// page's own acknowledged changes), the very thing a receiver holds it to; a timeline of this browser that
// another tab writes joins it as far as the page accounts for it without a gap (this tab cannot tell what
// the server acknowledged of it; standing for all of it is safe, since the snapshot then holds all of it
// that still matters). It holds the changes inside the cut, less those that stopped mattering by the
// board's rule over everything the page holds (room-inert.js).
//
// It is made only from the room's whole history: nothing kept aside that a later version could read, every
// change of the cut accounted for, and no change held outside it but this page's own not yet acknowledged
// (those are still to be pushed). A change is accounted for when the page holds it, or when it lies within
// what the room's store stands for without holding it: what a room snapshot it took in place of packs
// stands for (`cover`, on that snapshot's word, as the server took it), and what its own compaction left out
// as inert (`pruned`, store-compaction.js). The cut must then stand for all the page left out: a change left
// out as inert only given changes the cut does not stand for would be left out wrongly. So whatever the
// server says of positions, a snapshot this page sends leaves out no change it holds that still matters:
// the rest of what it holds is pushed.
//
// A timeline whose last change in the cut the page does not hold takes, as in Swift, the stamp of the latest
// change of it the page holds within the cut; holding none, the stamp the store keeps for it when the page
// accounts for it exactly that far (the latest it knew when it left them out, never the other snapshot's
// word for a change not held), else zero. Receivers check a stamp only against a change the snapshot holds.

import { compareChangeIds } from '../model/ids.js';
import { compareStamps, ZERO_STAMP } from '../model/stamp.js';
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
 * @typedef {import('./store-records.js').CutEntry} CutEntry
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
 *   cover?: CutEntry[], pruned?: CutEntry[],
 *   roomKey?: import('../wire/room-key.js').RoomKey | null, id?: Uint8Array, partBodyBytes?: number
 * }} room `within`: what came through the position, by replica (the tracker's `required`); `needed`: the
 *   fewest changes it may stand for; `held`: every change the page holds of the room, by key
 *   (`replica-seq`); `aside`: what it keeps aside; `author`: the timeline whose key (`signer`) signs it;
 *   `own`: this browser's timelines, `leased` those this page pushes, and `waiting` the keys of their
 *   changes not acknowledged yet; `cover` and `pruned`: what the room's store stands for without holding it
 *   (store-records.js), read after `held`; `id`: 16 random bytes, fresh unless a test gives them
 * @returns {Promise<Made>}
 * - Complexity: O(size of the changes held) to find what stopped mattering, plus one signature per part.
 */
export async function makeSnapshot({ room, position, within, needed, held, aside, author, own, leased, waiting, signer, cover = [], pruned = [], roomKey = null, id, partBodyBytes }) {
  if (aside.some(keptForLater)) return refused('the page keeps aside changes it cannot read yet');
  /** What the store stands for without holding it, by replica. @type {Map<string, CutEntry>} */
  const stands = new Map();
  for (const entry of [...cover, ...pruned]) {
    const known = stands.get(entry.replica);
    const further = known === undefined || known.seq < entry.seq;
    if (further || (known.seq === entry.seq && compareStamps(known.stamp, entry.stamp) < 0)) stands.set(entry.replica, entry);
  }
  const floor = (/** @type {string} */ replica) => stands.get(replica)?.seq ?? 0;
  /** How far the page accounts for a timeline without a gap: what it stands for, then what it holds. */
  const through = (/** @type {string} */ replica) => {
    let seq = floor(replica);
    while (held.has(`${replica}-${seq + 1}`)) seq += 1;
    return seq;
  };
  const cut = new Map(within);
  for (const replica of own) {
    if (leased.has(replica)) continue;
    const seq = Math.max(cut.get(replica) ?? 0, through(replica));
    if (seq > 0) cut.set(replica, seq);
  }
  let total = 0;
  for (const seq of cut.values()) total += seq;
  if (total < needed) return refused(`its cut stands for ${total} changes, fewer than the ${needed} due`);
  const inside = [];
  /** Changes held inside the cut past what the store stands for, by replica. @type {Map<string, number>} */
  const counted = new Map();
  for (const key of held.keys()) {
    const id = keyId(key);
    const seq = cut.get(id.replica) ?? 0;
    if (id.seq <= seq) {
      inside.push(id);
      if (id.seq > floor(id.replica)) counted.set(id.replica, (counted.get(id.replica) ?? 0) + 1);
    } else if (!waiting.has(key)) return refused(`the page holds ${key}, past what the cut stands for, and not its own to push`);
  }
  for (const [replica, seq] of cut) {
    if ((counted.get(replica) ?? 0) !== seq - Math.min(floor(replica), seq)) return refused('the page lacks changes the cut stands for');
  }
  for (const entry of pruned) {
    if (entry.seq > (cut.get(entry.replica) ?? 0)) return refused('the page left out changes past what its cut stands for');
  }
  if ((cut.get(author) ?? 0) === 0) return refused('the page’s own timeline is not in the cut yet');
  /** Each timeline's latest change held inside the cut. @type {Map<string, {seq: number, key: string}>} */
  const latest = new Map();
  for (const one of inside) if ((latest.get(one.replica)?.seq ?? 0) < one.seq) latest.set(one.replica, one);
  /** @type {Cut} */
  const coverOut = new Map();
  for (const [replica, seq] of cut) {
    if (seq === 0) continue;
    const last = latest.get(replica);
    const stamp =
      last !== undefined
        ? changeHeader(/** @type {HeldChange} */ (held.get(last.key)).bytes).stamp
        : through(replica) === seq
          ? /** @type {CutEntry} */ (stands.get(replica)).stamp
          : ZERO_STAMP;
    coverOut.set(replica, { seq, stamp: { wall: stamp.wall, counter: stamp.counter } });
  }
  const inert = inertKeys(held.values(), cut);
  const kept = inside.filter((one) => !inert.has(one.key)).sort(compareChangeIds);
  const changes = kept.map((one) => /** @type {HeldChange} */ (held.get(one.key)).bytes);
  let schemaVersion = 0;
  for (const bytes of changes) schemaVersion = Math.max(schemaVersion, changeHeader(bytes).schemaVersion);
  const parts = await encodeSnapshot(
    { room, position, cut: coverOut, changes, id: id ?? crypto.getRandomValues(new Uint8Array(16)), schemaVersion: changes.length === 0 ? SCHEMA_VERSION : schemaVersion },
    signer,
    { roomKey, partBodyBytes },
  );
  return { made: true, parts, cut: coverOut, changes: total, held: changes.length };
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
