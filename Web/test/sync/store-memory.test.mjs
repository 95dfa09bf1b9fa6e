// The memory store keeps the store contract (the same cases run against IndexedDB in a browser).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryStore } from '../../js/sync/store-memory.js';
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
