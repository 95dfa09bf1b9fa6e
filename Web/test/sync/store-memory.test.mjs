// The memory store keeps the store contract (the same cases run against IndexedDB in a browser).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryStore } from '../../js/sync/store-memory.js';
import { seededKeys, testAuthor } from '../support/keys.mjs';
import { storeCases } from './support/store-contract.mjs';

for (const { name, run } of storeCases) {
  test(name, () => run(async () => new MemoryStore(), assert));
}

test('a failing disk fails writes with a storage error and keeps what was stored', async () => {
  const store = new MemoryStore();
  const lease = await store.claimReplica('r');
  store.failWrites = new Error('quota exceeded');
  await assert.rejects(store.setWatermark('r', 1), (error) => error.code === 'storage' && /quota/.test(error.message));
  store.failWrites = null;
  assert.equal((await store.loadRoom('r')).watermark, 0);
  lease.release();
});

test('a timeline an earlier version made, without a key, is never leased: a new keyed one is made', async () => {
  const legacy = 'ee'.repeat(16);
  const store = new MemoryStore({ legacyReplicas: [{ room: 'r', replica: legacy, lastSeq: 4 }] });
  const lease = await store.claimReplica('r');
  assert.notEqual(lease.replica, legacy);
  assert.ok(lease.keys.privateKey !== undefined);
  assert.equal(lease.lastSeq, 0);
  assert.equal(await store.tryLease('r', legacy), null, 'its packs could not be signed');
  assert.deepEqual((await store.loadRoom('r')).replicas.map((r) => r.replica), [legacy, lease.replica]);
  lease.release();
});

test('keys come from the generator it is given: seeded keys make the same timelines every run', async () => {
  const first = await new MemoryStore({ generateKey: seededKeys() }).claimReplica('r');
  const second = await new MemoryStore({ generateKey: seededKeys() }).claimReplica('r');
  assert.equal(first.replica, second.replica);
  assert.equal(first.replica, (await testAuthor(1)).replica);
});
