// What the fake server holds of room snapshots, for tests of the snapshots a page sends, and what a device
// holding every change makes of one.

import { readHeld, reviewSnapshot } from '../../../js/sync/snapshot-review.js';
import { toHex } from '../../../js/wire/bytes.js';
import { changeOrigin } from '../../../js/wire/change.js';
import { decodePack } from '../../../js/wire/pack.js';
import { SnapshotAssembly } from '../../../js/wire/snapshot-assembly.js';
import { decodeSnapshotPart } from '../../../js/wire/snapshot-part.js';
import { cutOf } from './cuts.mjs';

/**
 * The whole snapshots the server stored in `room`, in the order their first parts came: each assembled,
 * with the log positions of its parts.
 * @param {import('./fake-server.mjs').FakeServer} server
 * @param {string} room
 * @param {import('../../../js/wire/room-key.js').RoomKey | null} [roomKey]
 * @returns {Promise<{positions: number[], snapshot: import('../../../js/wire/snapshot-assembly.js').RoomSnapshot}[]>}
 */
export async function storedSnapshots(server, room, roomKey = null) {
  /** @type {Map<string, {positions: number[], assembly: SnapshotAssembly}>} */
  const byId = new Map();
  for (const stored of server.log.get(room) ?? []) {
    let part;
    try {
      part = await decodeSnapshotPart(stored.pack, { room, roomKey });
    } catch {
      // A pack of changes.
      continue;
    }
    const id = toHex(part.cover.id);
    const known = byId.get(id);
    if (known === undefined) byId.set(id, { positions: [stored.serverSeq], assembly: new SnapshotAssembly(part) });
    else if (known.assembly.add(part)) known.positions.push(stored.serverSeq);
  }
  return [...byId.values()]
    .filter(({ assembly }) => assembly.isComplete)
    .map(({ positions, assembly }) => ({ positions, snapshot: assembly.assembled() }));
}

/**
 * Resolves with the server's whole snapshots once it holds `count` of them; rejects after `timeout` ms.
 * @param {import('./fake-server.mjs').FakeServer} server
 * @param {string} room
 * @param {number} count
 * @param {{roomKey?: import('../../../js/wire/room-key.js').RoomKey | null, timeout?: number}} [options]
 */
export async function snapshotsStored(server, room, count, { roomKey = null, timeout = 10_000 } = {}) {
  const start = Date.now();
  for (;;) {
    const stored = await storedSnapshots(server, room, roomKey);
    if (stored.length >= count) return stored;
    if (Date.now() - start > timeout) throw new Error(`timed out waiting for ${count} snapshots stored (${stored.length} so far)`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Every change the server holds in packs (snapshot parts aside), encoded, in log order.
 * @param {import('./fake-server.mjs').FakeServer} server
 * @param {string} room
 * @returns {Promise<Uint8Array[]>}
 */
export async function loggedChanges(server, room) {
  const changes = [];
  for (const { pack } of server.log.get(room) ?? []) {
    try {
      changes.push(...(await decodePack(pack, { room })).changes);
    } catch {
      // A snapshot part.
    }
  }
  return changes;
}

/**
 * The review of a snapshot by a device that holds every change of `changes` and pushed none of them: what
 * Swift's `SnapshotReview` makes of it on such a device.
 * @param {import('../../../js/wire/snapshot-assembly.js').RoomSnapshot} snapshot
 * @param {Uint8Array[]} changes
 */
export function reviewedByOneHoldingEverything(snapshot, changes) {
  const held = new Map(
    changes.map((bytes) => {
      const { replica, seq } = changeOrigin(bytes);
      return [`${replica}-${seq}`, bytes];
    }),
  );
  return reviewSnapshot(snapshot, {
    held: (key) => held.get(key),
    holdings: new Map([...held].map(([key, bytes]) => [key, readHeld(bytes)])),
    required: new Map([...cutOf(changes)].map(([replica, { seq }]) => [replica, seq])),
    own: new Set(),
    acknowledged: new Set(),
  });
}
