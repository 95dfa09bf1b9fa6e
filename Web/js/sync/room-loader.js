// Opening a room from the store: the timeline this page leases, its author resumed, every stored change
// decoded for the board (but those held for review, which come apart), the outbox of the leased timelines,
// the packs still waiting for their acks, and the key that signs each leased timeline's packs; what was
// kept aside and reads now (a newer schema after an upgrade, a sealed pack that came before the key) is
// opened on the way. All of it before any network: a reload while offline shows the board. What the store
// stands for without holding it (left out by its compaction, or by a room snapshot it took) comes too: the
// page's frontier starts past it.

import { packSigner } from '../wire/author-key.js';
import { changeHeader, decodeChange } from '../wire/change.js';
import { isDue, isRefused, readChange, reopenAside, reviewAhead, STAMP_AHEAD } from './pack-intake.js';
import { resumeAuthor } from './resume-author.js';

/**
 * @typedef {import('./store-records.js').Store} Store
 * @typedef {import('./store-records.js').ReplicaLease} ReplicaLease
 * @typedef {import('./store-records.js').PendingPack} PendingPack
 * @typedef {import('./outbox-planner.js').QueuedChange} QueuedChange
 * @typedef {import('../wire/author-key.js').PackSigner} PackSigner
 * @typedef {{
 *   leases: ReplicaLease[], signers: Map<string, PackSigner>, author: import('../model/author.js').Author,
 *   changes: object[], held: object[], queue: QueuedChange[], packs: PendingPack[], watermark: number,
 *   ahead: {waiting: number, earliestAhead: number}, own: string[], liveAt: number | null, refused: string[],
 *   heard: import('./store-records.js').HeardSnapshot | null, cover: import('./store-records.js').CutEntry[],
 *   pruned: import('./store-records.js').CutEntry[]
 * }} LoadedRoom `signers`: by replica, one for each leased timeline; `changes`: those for the live board;
 *   `held`: those held for review, in the store's order; `ahead`: the changes kept aside for
 *   their stamp that are still ahead of the clock, and the smallest wall time among their stamps;
 *   `refused`: the reasons of packs kept for later that opened now and failed verification; `own`:
 *   every timeline this store made for the room (this browser's, whose changes are never held);
 *   `liveAt`: the last time a session of the room was live here; `heard`: the newest room snapshot heard
 *   of here; `cover` and `pruned`: what the store stands for without holding it (store-records.js)
 */

/**
 * @param {Store} store
 * @param {string} room
 * @param {{board: string, now?: () => number, roomKey?: import('../wire/room-key.js').RoomKey | null}} options
 *   `roomKey`: the encrypted room's key, which opens sealed packs kept aside while it was not held
 * @returns {Promise<LoadedRoom>} on failure the leases taken are released
 */
export async function loadRoom(store, room, { board, now, roomKey = null }) {
  const own = await store.claimReplica(room);
  const leases = [own];
  try {
    const contents = await store.loadRoom(room);
    const decoded = new Map();
    for (const stored of contents.changes) {
      try {
        decoded.set(stored.key, decodeChange(stored.bytes));
      } catch {
        // Stored by a version that could read it; one that cannot stays stored and harms nothing.
      }
    }
    const aside = await promoteAside(store, room, contents.aside, decoded, now?.() ?? Date.now(), roomKey);
    const ownRecord = contents.replicas.find((record) => record.replica === own.replica);
    const author = resumeAuthor({
      replica: own.replica,
      lastSeq: Math.max(own.lastSeq, ownRecord?.lastSeq ?? 0),
      board,
      changes: [...decoded.values()],
      stamps: aside.stamps,
      now,
    });
    // Timelines a closed tab left with changes to push: taken over while no other page holds them.
    const waiting = new Set([...contents.outbox.map((entry) => entry.replica), ...contents.packs.map((pack) => pack.replica)]);
    for (const replica of waiting) {
      if (replica === own.replica) continue;
      const lease = await store.tryLease(room, replica);
      if (lease !== null) leases.push(lease);
    }
    const signers = new Map();
    for (const lease of leases) signers.set(lease.replica, await packSigner(lease.keys));
    const leased = leases.map((lease) => lease.replica);
    const bytes = new Map(contents.changes.map((stored) => [stored.key, stored.bytes]));
    // Changes of this browser's own timelines are never held: a mark on one is ignored, and it is shown.
    const timelines = new Set([own.replica, ...contents.replicas.map((record) => record.replica)]);
    const heldKeys = new Set(contents.held);
    const changes = [];
    const held = [];
    for (const [key, change] of decoded) (heldKeys.has(key) && !timelines.has(change.id.replica) ? held : changes).push(change);
    const queue = contents.outbox
      .filter((entry) => leased.includes(entry.replica) && bytes.has(entry.key))
      .sort((a, b) => leased.indexOf(a.replica) - leased.indexOf(b.replica) || a.seq - b.seq)
      .map((entry) => ({ key: entry.key, room, id: { replica: entry.replica, seq: entry.seq }, bytes: /** @type {Uint8Array} */ (bytes.get(entry.key)) }));
    return {
      leases,
      signers,
      author,
      changes,
      held,
      queue,
      packs: contents.packs.filter((pack) => leased.includes(pack.replica)),
      watermark: contents.watermark,
      ahead: { waiting: aside.waiting, earliestAhead: aside.earliestAhead },
      own: [...timelines],
      liveAt: contents.liveAt ?? null,
      refused: aside.refused,
      heard: contents.heard ?? null,
      cover: contents.cover ?? [],
      pruned: contents.pruned ?? [],
    };
  } catch (error) {
    for (const lease of leases) lease.release();
    throw error;
  }
}

/**
 * Decodes what was kept aside and may be read now: changes from a newer schema, now that this version may
 * read them, changes stamped ahead of the clock that it has caught up with, and packs kept for later that
 * open now (reopenAside: a newer schema, or sealed before this device held the room's key), verified as on
 * arrival; what still does not decode stays aside, and so does every pack that failed verification. A
 * pack that fails it now is kept with its reason, and never tried again. Returns the stamps of the
 * newer-schema changes that stay, so the clock sorts after them, what still waits for the clock, and the
 * reasons of the packs refused now.
 * @param {Store} store
 * @param {string} room
 * @param {(import('./store-records.js').AsideItem & {id: number})[]} items
 * @param {Map<string, object>} decoded
 * @param {number} now
 * @param {import('../wire/room-key.js').RoomKey | null} roomKey
 */
async function promoteAside(store, room, items, decoded, now, roomKey) {
  const stamps = [];
  const ahead = reviewAhead(room, items, { now });
  const due = new Map(ahead.due.map((entry) => [entry.id, entry]));
  for (const item of items) {
    if (isRefused(item) || item.kind === 'pack') continue;
    let changes;
    if (item.reason === STAMP_AHEAD) {
      const entry = due.get(item.id);
      changes = entry === undefined ? [] : [entry];
    } else {
      const read = readChange(room, item.bytes, item.schemaVersion);
      changes = read.change === null || !isDue(read.change.change.stamp, now) ? [] : [read.change];
      if (changes.length === 0) {
        const stamp = headerStamp(item.bytes);
        if (stamp !== null) stamps.push(stamp);
      }
    }
    if (changes.length === 0) continue;
    await store.promoteAside(room, item.id, changes.map((c) => c.stored));
    for (const { change, stored } of changes) decoded.set(stored.key, change);
  }
  const refused = [];
  let { waiting, earliestAhead } = ahead;
  for (const pack of await reopenAside(room, items, { now }, { roomKey })) {
    await store.replaceAside(room, pack.id, pack.changes.map((c) => c.stored), pack.aside);
    for (const { change, stored } of pack.changes) decoded.set(stored.key, change);
    if (pack.refused !== null) refused.push(pack.refused);
    waiting += pack.ahead;
    earliestAhead = Math.min(earliestAhead, pack.earliestAhead);
    for (const kept of pack.aside) {
      const stamp = kept.kind === 'change' && kept.reason === undefined ? headerStamp(kept.bytes) : null;
      if (stamp !== null) stamps.push(stamp);
    }
  }
  return { stamps, waiting, earliestAhead, refused };
}

/** The stamp of an encoded change, or null if its header does not read. @param {Uint8Array} bytes */
function headerStamp(bytes) {
  try {
    return changeHeader(bytes).stamp;
  } catch {
    return null;
  }
}
