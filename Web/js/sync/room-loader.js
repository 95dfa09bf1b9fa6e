// Opening a room from the store: the timeline this page leases, its author resumed, every stored change
// decoded for the board, the outbox of the leased timelines, and the packs still waiting for their acks.
// All of it before any network: a reload while offline shows the board.

import { changeHeader, decodeChange } from '../wire/change.js';
import { readChange, readPack } from './pack-intake.js';
import { resumeAuthor } from './resume-author.js';

/**
 * @typedef {import('./store-records.js').Store} Store
 * @typedef {import('./store-records.js').ReplicaLease} ReplicaLease
 * @typedef {import('./store-records.js').PendingPack} PendingPack
 * @typedef {import('./outbox-planner.js').QueuedChange} QueuedChange
 * @typedef {{
 *   leases: ReplicaLease[], author: import('../model/author.js').Author, changes: object[],
 *   queue: QueuedChange[], packs: PendingPack[], watermark: number
 * }} LoadedRoom
 */

/**
 * @param {Store} store
 * @param {string} room
 * @param {{board: string, now?: () => number}} options
 * @returns {Promise<LoadedRoom>} on failure the leases taken are released
 */
export async function loadRoom(store, room, { board, now }) {
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
    const asideStamps = await promoteAside(store, room, contents.aside, decoded);
    const ownRecord = contents.replicas.find((record) => record.replica === own.replica);
    const author = resumeAuthor({
      replica: own.replica,
      lastSeq: Math.max(own.lastSeq, ownRecord?.lastSeq ?? 0),
      board,
      changes: [...decoded.values()],
      stamps: asideStamps,
      now,
    });
    // Timelines a closed tab left with changes to push: taken over while no other page holds them.
    const waiting = new Set([...contents.outbox.map((entry) => entry.replica), ...contents.packs.map((pack) => pack.replica)]);
    for (const replica of waiting) {
      if (replica === own.replica) continue;
      const lease = await store.tryLease(room, replica);
      if (lease !== null) leases.push(lease);
    }
    const leased = leases.map((lease) => lease.replica);
    const bytes = new Map(contents.changes.map((stored) => [stored.key, stored.bytes]));
    const queue = contents.outbox
      .filter((entry) => leased.includes(entry.replica) && bytes.has(entry.key))
      .sort((a, b) => leased.indexOf(a.replica) - leased.indexOf(b.replica) || a.seq - b.seq)
      .map((entry) => ({ key: entry.key, room, id: { replica: entry.replica, seq: entry.seq }, bytes: /** @type {Uint8Array} */ (bytes.get(entry.key)) }));
    return {
      leases,
      author,
      changes: [...decoded.values()],
      queue,
      packs: contents.packs.filter((pack) => leased.includes(pack.replica)),
      watermark: contents.watermark,
    };
  } catch (error) {
    for (const lease of leases) lease.release();
    throw error;
  }
}

/**
 * Decodes what was kept aside from a newer schema, now that this version may read it; what still does
 * not decode stays aside. Returns the stamps of the changes that stay, so the clock sorts after them.
 */
async function promoteAside(store, room, items, decoded) {
  const stamps = [];
  for (const item of items) {
    let changes;
    if (item.kind === 'pack') {
      const read = await readPack(room, item.bytes);
      changes = read.aside.length === 0 ? read.changes : [];
    } else {
      const read = readChange(room, item.bytes, item.schemaVersion);
      changes = read.change === null ? [] : [read.change];
      if (read.change === null) {
        const stamp = headerStamp(item.bytes);
        if (stamp !== null) stamps.push(stamp);
      }
    }
    if (changes.length === 0) continue;
    await store.promoteAside(room, item.id, changes.map((c) => c.stored));
    for (const { change, stored } of changes) decoded.set(stored.key, change);
  }
  return stamps;
}

/** The stamp of an encoded change, or null if its header does not read. @param {Uint8Array} bytes */
function headerStamp(bytes) {
  try {
    return changeHeader(bytes).stamp;
  } catch {
    return null;
  }
}
