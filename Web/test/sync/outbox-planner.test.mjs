// Cutting the outbox into packs, as Swift's OutboxPlannerTests.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toHex } from '../../js/wire/bytes.js';
import { packId } from '../../js/wire/pack-id.js';
import { ENVELOPE_RESERVE, entryBytes, planPacks } from '../../js/sync/outbox-planner.js';

const REPLICA = 'ab'.repeat(16);

/** @param {number} seq @param {number} [size] */
function queued(seq, size = 10) {
  return { key: `${REPLICA}-${seq}`, room: 'r', id: { replica: REPLICA, seq }, bytes: new Uint8Array(size) };
}

test('a queue under the limits becomes one pack named by its changes', () => {
  const queue = [1, 2, 3].map((seq) => queued(seq));
  const [pack, ...rest] = planPacks('r', queue);
  assert.equal(rest.length, 0);
  assert.deepEqual(pack.changes, queue);
  assert.equal(pack.hex, toHex(packId('r', queue.map((change) => change.id))));
});

test('the same queue always gives the same packs, so a push after a lost ack is stored once', () => {
  const queue = Array.from({ length: 10 }, (_, index) => queued(index + 1));
  const limits = { maximumChanges: 3, maximumBytes: 1 << 20 };
  const first = planPacks('r', queue, limits).map((pack) => pack.hex);
  const second = planPacks('r', [...queue], limits).map((pack) => pack.hex);
  assert.deepEqual(first, second);
  assert.equal(first.length, 4);
  assert.equal(new Set(first).size, 4);
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
});
