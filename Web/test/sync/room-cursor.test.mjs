// The contiguity rule of the watermark, as Swift's RoomCursorTests.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RoomCursor } from '../../js/sync/room-cursor.js';
import { randomFor } from './support/random.mjs';

test('the watermark moves only over contiguous positions', () => {
  const cursor = new RoomCursor(2);
  assert.equal(cursor.see(4), false);
  assert.equal(cursor.see(5), false);
  assert.deepEqual(cursor.pending, [4, 5]);
  assert.equal(cursor.watermark, 2);
  assert.equal(cursor.see(3), true);
  assert.equal(cursor.watermark, 5);
  assert.deepEqual(cursor.pending, []);
  assert.equal(cursor.see(1), false, 'a position at or below the watermark changes nothing');
  cursor.checkInvariants();
});

test('the head is the newest position named, and at head means everything named was seen', () => {
  const cursor = new RoomCursor(0);
  cursor.learn(3);
  assert.equal(cursor.isAtHead, false);
  for (const position of [1, 2, 3]) cursor.see(position);
  assert.equal(cursor.isAtHead, true);
  cursor.checkInvariants();
});

test('any order of arrival gives the same watermark as sorting (seeded)', (t) => {
  const random = randomFor(t);
  for (let round = 0; round < 200; round++) {
    const count = random.int(1, 40);
    const seen = random.shuffled(Array.from({ length: count }, (_, index) => index + 1)).slice(0, random.int(0, count));
    const cursor = new RoomCursor(0);
    for (const position of seen) {
      cursor.see(position);
      cursor.checkInvariants();
    }
    // The reference: the longest prefix 1…w inside the set.
    const set = new Set(seen);
    let expected = 0;
    while (set.has(expected + 1)) expected += 1;
    assert.equal(cursor.watermark, expected, `seen ${seen}`);
  }
});

test('a rebase holds everything through its position: pending positions below it go, those just past it join', () => {
  const cursor = new RoomCursor(2);
  for (const position of [4, 9, 11]) cursor.see(position);
  assert.equal(cursor.rebase(8), true);
  assert.equal(cursor.watermark, 9, 'the pending 9 follows the rebased 8');
  assert.deepEqual(cursor.pending, [11]);
  assert.equal(cursor.rebase(5), false, 'a rebase behind the watermark changes nothing');
  assert.equal(cursor.rebase(20), true);
  assert.deepEqual([cursor.watermark, cursor.head, cursor.pending], [20, 20, []]);
  cursor.checkInvariants();
});

test('rebases and sightings in any order give the watermark of a reference set (seeded)', (t) => {
  const random = randomFor(t);
  for (let round = 0; round < 200; round++) {
    const cursor = new RoomCursor(0);
    const held = new Set();
    for (let step = 0; step < 30; step++) {
      if (random.int(0, 5) === 0) {
        const position = random.int(1, 40);
        cursor.rebase(position);
        for (let p = 1; p <= position; p++) held.add(p);
      } else {
        const position = random.int(1, 40);
        cursor.see(position);
        held.add(position);
      }
      cursor.checkInvariants();
      let expected = 0;
      while (held.has(expected + 1)) expected += 1;
      assert.equal(cursor.watermark, expected);
    }
  }
});
