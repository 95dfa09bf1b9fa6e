// Interval sets: union, membership and the visible gaps (ported from Swift's IntervalSetTests, plus a
// seeded comparison with a dense model).
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, seed } from './support.mjs';
import { insertInterval, intervalUnion, setContains, gaps } from '../../js/geometry/intervals.js';

test('inserting merges overlapping and touching intervals and drops empty ones', () => {
  assert.deepEqual(intervalUnion([[1, 2], [3, 4], [2, 3]]), [[1, 4]]);
  assert.deepEqual(intervalUnion([[5, 6], [1, 2], [3, 3], [NaN, 1]]), [[1, 2], [5, 6]]);
  const set = [[1, 2]];
  assert.deepEqual(insertInterval(set, [0, 0.5]), [[0, 0.5], [1, 2]]);
  assert.deepEqual(set, [[1, 2]], 'the input is not changed');
});

test('gaps are what stays visible', () => {
  assert.deepEqual(gaps([[1.5, 2.5]], 0, 10), [[0, 1.5], [2.5, 10]]);
  assert.deepEqual(gaps([[0, 10]], 0, 10), []);
  assert.deepEqual(gaps([], 0, 0), []);
  assert.deepEqual(gaps([[-1, 0.5], [9, 12]], 0, 10), [[0.5, 9]]);
});

test('union, membership and gaps agree with a dense model', () => {
  const value = seed();
  console.log(`intervals seed=${value}`);
  const random = new Random(value);
  for (let round = 0; round < 200; round++) {
    const intervals = Array.from({ length: random.int(0, 8) }, () => {
      const a = random.int(0, 40) / 4;
      return [a, a + random.int(0, 12) / 4];
    });
    const set = intervalUnion(intervals);
    for (let i = 1; i < set.length; i++) assert.ok(set[i - 1][1] < set[i][0], `seed ${value}`);
    const visible = gaps(set, 0, 12);
    for (let step = 0; step < 12 * 8; step++) {
      const t = step / 8 + 1 / 16;
      const covered = intervals.some(([a, b]) => a <= t && t < b);
      assert.equal(setContains(set, t), covered, `seed ${value} t=${t}`);
      assert.equal(visible.some(([a, b]) => a <= t && t < b), !covered, `seed ${value} t=${t}`);
    }
  }
});
