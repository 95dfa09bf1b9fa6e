// Interval unions, after Tests/InkwellGeometryTests/IntervalSetTests.swift.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gaps as intervalGaps, insertInterval, setContains as intervalSetContains } from '../../js/geometry/intervals.js';
import { reproducibly, runSeed, seededRandom } from '../model/support/random.mjs';

const union = (intervals) => intervals.reduce(insertInterval, []);

test('overlapping and touching intervals coalesce', () => {
  const set = union([[5, 7], [1, 2], [2, 3], [6, 9], [4, 4]]);
  assert.deepEqual(set, [[1, 3], [5, 9]]);
  for (const p of [1, 2.5, 8.99]) assert.ok(intervalSetContains(set, p), String(p));
  for (const p of [3, 4, 9, 0.5]) assert.ok(!intervalSetContains(set, p), String(p));
});

test('gaps are what stays visible', () => {
  assert.deepEqual(intervalGaps(union([[1.5, 2], [3, 3.25]]), 0, 4), [[0, 1.5], [2, 3], [3.25, 4]]);
  assert.deepEqual(intervalGaps([[0, 4]], 0, 4), [], 'erasing [0, n) hides it all');
  assert.deepEqual(intervalGaps([], 0, 4), [[0, 4]]);
});

test('a union does not depend on insertion order', () => {
  const seed = runSeed();
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    const intervals = Array.from({ length: 30 }, () => {
      const a = random.int(0, 40) / 4;
      return [a, a + random.int(0, 8) / 4];
    });
    const reference = union(intervals);
    for (let i = 0; i < 20; i++) assert.deepEqual(union(random.shuffled(intervals)), reference);
    for (let p = 0; p <= 12; p += 0.125) {
      assert.equal(intervalSetContains(reference, p), intervals.some(([a, b]) => a <= p && p < b), `at ${p}`);
    }
  });
});
