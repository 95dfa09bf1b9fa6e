// What the fake server holds of room snapshots, for tests of the snapshots a page sends.

import { toHex } from '../../../js/wire/bytes.js';
import { SnapshotAssembly } from '../../../js/wire/snapshot-assembly.js';
import { decodeSnapshotPart } from '../../../js/wire/snapshot-part.js';

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
