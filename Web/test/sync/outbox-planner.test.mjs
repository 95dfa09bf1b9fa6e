// Cutting the outbox into packs, as Swift's OutboxPlannerTests: one replica a pack, and the same queue
// signed by the same key gives the same bytes and ids.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toHex } from '../../js/wire/bytes.js';
import { encodeChange } from '../../js/wire/change.js';
import { decodePack, encodePack } from '../../js/wire/pack.js';
import { packId } from '../../js/wire/pack-id.js';
import { ENVELOPE_RESERVE, entryBytes, planPacks } from '../../js/sync/outbox-planner.js';
import { testAuthor } from '../support/keys.mjs';

const REPLICA = 'ab'.repeat(16);
const OTHER = 'cd'.repeat(16);

/** @param {number} seq @param {number} [size] @param {string} [replica] */
function queued(seq, size = 10, replica = REPLICA) {
  return { key: `${replica}-${seq}`, room: 'r', id: { replica, seq }, bytes: new Uint8Array(size) };
}

/** A queued change as a page stores it: really encoded, by `replica`. */
function encoded(replica, seq) {
  const bytes = encodeChange({ id: { replica, seq }, stamp: { wall: 1_000 + seq, counter: 0 }, board: 'main', operations: [{ op: 'clear' }] });
  return { key: `${replica}-${seq}`, room: 'r', id: { replica, seq }, bytes };
}

test('a queue under the limits becomes one pack, named by its first change until it is signed', () => {
  const queue = [1, 2, 3].map((seq) => queued(seq));
  const [pack, ...rest] = planPacks('r', queue);
  assert.equal(rest.length, 0);
  assert.deepEqual(pack.changes, queue);
  assert.equal(pack.replica, REPLICA);
  assert.equal(pack.name, queue[0].key);
});

test('a pack holds one replica’s changes: timelines in the order of their oldest change', () => {
  const queue = [queued(1), queued(1, 10, OTHER), queued(2), queued(2, 10, OTHER), queued(3)];
  const packs = planPacks('r', queue);
  assert.deepEqual(
    packs.map((pack) => [pack.replica, pack.changes.map((change) => change.id.seq)]),
    [[REPLICA, [1, 2, 3]], [OTHER, [1, 2]]],
  );
  for (const pack of packs) assert.ok(pack.changes.every((change) => change.id.replica === pack.replica));
});

test('the same queue signed by the same key gives the same bytes and ids, so a push after a lost ack is stored once', async () => {
  const author = await testAuthor(0x0c);
  const again = await testAuthor(0x0c);
  const queue = Array.from({ length: 10 }, (_, index) => encoded(author.replica, index + 1));
  const limits = { maximumChanges: 3, maximumBytes: 1 << 20 };
  const sign = async (packs, keys) =>
    Promise.all(
      packs.map(async (pack) => {
        const bytes = await encodePack({ room: pack.room, changes: pack.changes.map((change) => change.bytes) }, keys);
        return { bytes: toHex(bytes), id: toHex(await packId(bytes)) };
      }),
    );
  const first = await sign(planPacks('r', queue, limits), author.keys);
  const second = await sign(planPacks('r', [...queue], limits), again.keys);
  assert.deepEqual(second, first, 're-planned and signed again: the very same packs');
  assert.equal(first.length, 4);
  assert.equal(new Set(first.map((pack) => pack.id)).size, 4);
  // The first pack after an ack of the first (the queue's front gone) is the old second pack.
  const replanned = await sign(planPacks('r', queue.slice(3), limits), author.keys);
  assert.deepEqual(replanned, first.slice(1));
  const decoded = await decodePack(Buffer.from(first[0].bytes, 'hex'), { room: 'r' });
  assert.equal(decoded.replica, author.replica);
});

test('packs are cut at the byte budget, and a change larger than it travels alone', () => {
  const limits = { maximumChanges: 100, maximumBytes: ENVELOPE_RESERVE + 100 };
  const small = queued(1, 30);
  assert.ok(entryBytes(small) * 2 <= 100 && entryBytes(small) * 3 > 100);
  const queue = [queued(1, 30), queued(2, 30), queued(3, 30), queued(4, 500), queued(5, 30)];
  const packs = planPacks('r', queue, limits);
  assert.deepEqual(
    packs.map((pack) => pack.changes.map((change) => change.id.seq)),
    [[1, 2], [3], [4], [5]],
  );
});

test('planning stops at the number of packs asked for', () => {
  const queue = Array.from({ length: 10 }, (_, index) => queued(index + 1));
  const packs = planPacks('r', queue, { maximumChanges: 2, maximumBytes: 1 << 20 }, 2);
  assert.deepEqual(packs.map((pack) => pack.changes.length), [2, 2]);
  assert.deepEqual(planPacks('r', queue, undefined, 0), []);
  const twoTimelines = [queued(1), queued(1, 10, OTHER)];
  assert.deepEqual(planPacks('r', twoTimelines, undefined, 1).map((pack) => pack.replica), [REPLICA]);
});
