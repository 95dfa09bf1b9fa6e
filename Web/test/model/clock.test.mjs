// The hybrid logical clock, after Tests/InkwellSyncTests/Clock/HybridLogicalClockTests.swift.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HybridLogicalClock } from '../../js/model/clock.js';
import { MAX_COUNTER, MAX_WALL, compareStamps } from '../../js/model/stamp.js';
import { SyncProtocol } from '../../js/wire/limits.js';

const YEAR = 365 * 86_400_000;
const NOW = 1_800_000_000_000;
const stamp = (wall, counter = 0) => ({ wall, counter });

test('stamps follow wall time when it moves forward', () => {
  const clock = new HybridLogicalClock();
  assert.deepEqual(clock.next(1_000), stamp(1_000));
  assert.deepEqual(clock.next(1_000), stamp(1_000, 1));
  assert.deepEqual(clock.next(1_007), stamp(1_007));
});

test('stamps stay monotonic when the wall clock jumps backwards', () => {
  const clock = new HybridLogicalClock();
  const stamps = [5_000, 5_001, 4_000, 4_000, 100, 5_001, 5_002, 3, 6_000].map((wall) => clock.next(wall));
  for (let i = 1; i < stamps.length; i++) assert.ok(compareStamps(stamps[i - 1], stamps[i]) < 0);
  assert.deepEqual(stamps[2], stamp(5_001, 1), 'holds the last wall time, counts on');
  assert.deepEqual(stamps.at(-1), stamp(6_000), 'rejoins wall time once it passes');
});

test('a write made after seeing a skewed one still sorts after it, and the skew is reported', () => {
  // Clocks that accept any lead, as Lamport's rule is about what is witnessed.
  const ahead = new HybridLogicalClock({ maximumLeadMilliseconds: Infinity });
  const behind = new HybridLogicalClock({ maximumLeadMilliseconds: Infinity });
  const stampA = ahead.next(NOW + YEAR);
  const skew = behind.witness(stampA, NOW - YEAR);
  assert.equal(skew.aheadMilliseconds, 2 * YEAR);
  assert.equal(behind.diagnostics.skewedWitnesses, 1);
  const stampB = behind.next(NOW - YEAR);
  assert.ok(compareStamps(stampB, stampA) > 0);
  ahead.witness(stampB, NOW + YEAR);
  assert.ok(compareStamps(ahead.next(NOW + YEAR), stampB) > 0);
});

test('ordinary drift is not reported as skew', () => {
  const clock = new HybridLogicalClock();
  assert.equal(clock.witness(stamp(NOW + 2_000), NOW), null);
  assert.equal(clock.witness(stamp(NOW - YEAR), NOW), null);
  assert.equal(clock.diagnostics.skewedWitnesses, 0);
  assert.deepEqual(clock.next(NOW), stamp(NOW + 2_000, 1));
});

test('counter exhaustion borrows the next millisecond without losing order', () => {
  const clock = new HybridLogicalClock();
  let previous = clock.next(NOW);
  for (let i = 0; i < 200_000; i++) {
    const next = clock.next(NOW);
    if (compareStamps(next, previous) <= 0) assert.fail(`stamp ${i} not after the previous one`);
    previous = next;
  }
  assert.equal(clock.diagnostics.counterOverflows, 3);
  assert.equal(previous.wall, NOW + 3);
  assert.ok(clock.diagnostics.stampsAheadOfWall > 0);
  assert.deepEqual(clock.next(NOW + 10), stamp(NOW + 10));
});

test('witnessing a stamp at the counter limit still leaves room to count', () => {
  const clock = new HybridLogicalClock();
  clock.witness(stamp(NOW, MAX_COUNTER), NOW);
  assert.deepEqual(clock.next(NOW), stamp(NOW + 1));
  assert.equal(clock.diagnostics.counterOverflows, 1);
});

test('a clock resumed from storage never reissues a stamp', () => {
  const stored = stamp(NOW, 7);
  const clock = new HybridLogicalClock({ latest: stored });
  assert.ok(compareStamps(clock.next(NOW - 60_000), stored) > 0);
});

test('the very last stamp is given again rather than thrown or wrapped; wall time is clamped to 48 bits', () => {
  const clock = new HybridLogicalClock({ latest: stamp(MAX_WALL, MAX_COUNTER) });
  assert.deepEqual(clock.next(NOW), stamp(MAX_WALL, MAX_COUNTER));
  assert.deepEqual(clock.next(2 ** 52), stamp(MAX_WALL, MAX_COUNTER));
  assert.equal(clock.diagnostics.exhausted, 2);
  assert.deepEqual(new HybridLogicalClock().next(2 ** 52), stamp(MAX_WALL));
  assert.deepEqual(new HybridLogicalClock().next(-5), stamp(0, 1), 'negative wall time reads as 0');
});

test('a stamp at the top of the range (2^64 − 1) is not witnessed, does not throw, and is reported', () => {
  const clock = new HybridLogicalClock();
  clock.next(NOW);
  const report = clock.witness(stamp(MAX_WALL, MAX_COUNTER), NOW);
  assert.equal(report.ignored, true);
  assert.equal(report.aheadMilliseconds, MAX_WALL - NOW);
  assert.deepEqual(clock.latest, stamp(NOW), 'the clock did not move');
  assert.deepEqual(clock.next(NOW), stamp(NOW, 1), 'and goes on counting from where it was');
  assert.equal(clock.diagnostics.ignoredWitnesses, 1);
});

test('a stamp just past the lead is not witnessed; one at the lead is', () => {
  const lead = SyncProtocol.maximumStampLeadMilliseconds;
  assert.equal(lead, 300_000);
  const clock = new HybridLogicalClock();
  const past = clock.witness(stamp(NOW + lead + 1), NOW);
  assert.equal(past.ignored, true);
  assert.deepEqual(clock.latest, stamp(0));
  const at = clock.witness(stamp(NOW + lead, 3), NOW);
  assert.equal(at.ignored, false, 'within the lead: witnessed, and still reported as skew');
  assert.deepEqual(clock.next(NOW), stamp(NOW + lead, 4));
  assert.equal(new HybridLogicalClock({ maximumLeadMilliseconds: 10 }).witness(stamp(NOW + 11), NOW).ignored, true);
});

test('malformed stamps are refused, never wrapped', () => {
  const clock = new HybridLogicalClock();
  for (const bad of [stamp(-1), stamp(1, MAX_COUNTER + 1), stamp(MAX_WALL + 1), stamp(1.5), null]) {
    assert.throws(() => clock.witness(bad, NOW), RangeError);
  }
  assert.deepEqual(clock.latest, stamp(0));
});
