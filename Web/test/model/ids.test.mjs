// Replica, change and stroke ids, and the total order.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bytesToHex,
  compareChanges,
  comparePositions,
  newReplicaId,
  parseChangeId,
  parseStrokeId,
  replicaBytes,
  strokeId,
} from '../../js/model/ids.js';

const A = '01000000000000000000000000000001';
const B = 'ff000000000000000000000000000000';

test('a new replica id is 16 random bytes as lowercase hex', () => {
  const id = newReplicaId();
  assert.match(id, /^[0-9a-f]{32}$/);
  assert.notEqual(newReplicaId(), id);
  assert.equal(newReplicaId((bytes) => bytes.fill(0xab)), 'ab'.repeat(16));
  assert.deepEqual(bytesToHex(replicaBytes(A)), A);
});

test('stroke ids round-trip and read as Swift reads them', () => {
  assert.equal(strokeId({ replica: A, seq: 12 }, 3), `${A}-12-3`);
  assert.deepEqual(parseStrokeId(`${A}-12-3`), { replica: A, seq: 12, index: 3 });
  assert.deepEqual(parseStrokeId(`${A.toUpperCase()}-012-0`), { replica: A, seq: 12, index: 0 });
  for (const bad of [`${A}-0-0`, `${A}-1`, `${A}-1-0-0`, `${A}--1-0`, `${A}-1-4294967296`, `${A}x-1-0`, `${A}-+1-0`, 7]) {
    assert.equal(parseStrokeId(bad), null, String(bad));
  }
  assert.equal(parseChangeId({ replica: A, seq: 0 }), null);
  assert.equal(parseChangeId({ replica: A, seq: 2 ** 53 }), null);
});

test('the total order is stamp, then replica bytes, then seq', () => {
  const change = (wall, counter, replica, seq) => ({ stamp: { wall, counter }, id: { replica, seq } });
  const sorted = [change(1, 0, B, 9), change(1, 1, A, 1), change(1, 1, A, 2), change(1, 1, B, 1), change(2, 0, A, 1)];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = 0; j < sorted.length; j++) {
      assert.equal(Math.sign(compareChanges(sorted[i], sorted[j])), Math.sign(i - j), `${i} vs ${j}`);
    }
  }
  const at = (index) => ({ stamp: { wall: 1, counter: 1 }, replica: A, seq: 2, index });
  assert.ok(comparePositions(at(0), at(1)) < 0);
});
