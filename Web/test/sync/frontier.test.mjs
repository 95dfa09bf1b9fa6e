// What a page holds of each timeline (js/sync/frontier.js): seqs past a gap wait apart until it fills, and
// while any does, the page checks no room snapshot.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Frontier } from '../../js/sync/frontier.js';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);

test('a change past a gap waits apart, and is a gap until the gap fills', () => {
  const frontier = new Frontier();
  frontier.add({ replica: A, seq: 1 });
  frontier.add({ replica: A, seq: 2 });
  assert.equal(frontier.hasGap, false);
  frontier.add({ replica: A, seq: 4 });
  frontier.add({ replica: B, seq: 1 });
  assert.equal(frontier.through(A), 2);
  assert.equal(frontier.hasGap, true, 'A:4 came before A:3');
  frontier.add({ replica: A, seq: 3 });
  assert.equal(frontier.through(A), 4);
  assert.equal(frontier.hasGap, false);
  assert.deepEqual([...frontier.vector()], [[A, 4], [B, 1]]);
});

test('what a snapshot stands for closes a gap too', () => {
  const frontier = new Frontier();
  frontier.add({ replica: A, seq: 7 });
  assert.equal(frontier.hasGap, true);
  frontier.cover(A, 6);
  assert.equal(frontier.hasGap, false);
  assert.equal(frontier.through(A), 7);
});
