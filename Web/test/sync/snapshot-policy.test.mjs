// When the page sends a room snapshot (snapshot-policy.js), as Swift's `SyncClient+Snapshots`: the changes
// due before the next one, one plan at a time with one more considered after it, and the defaults Swift's
// client configuration writes.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { changesForNextSnapshot, isNewer, SNAPSHOT_DELAY, SNAPSHOT_THRESHOLD, SnapshotPlan } from '../../js/sync/snapshot-policy.js';

test('the defaults are those of Swift’s client configuration', () => {
  const swift = readFileSync(new URL('../../../Sources/InkwellClient/Client/SyncClient+Configuration.swift', import.meta.url), 'utf8');
  const threshold = /snapshotThreshold: Int\? = ([\d_]+),/.exec(swift);
  const delay = /snapshotDelay: Duration = \.seconds\((\d+)\)/.exec(swift);
  assert.ok(threshold !== null && delay !== null, 'the Swift defaults are written as this test reads them');
  assert.equal(SNAPSHOT_THRESHOLD, Number(threshold[1].replaceAll('_', '')));
  assert.equal(SNAPSHOT_DELAY, Number(delay[1]) * 1000);
});

test('the next snapshot waits for the threshold past the newest one, or half what it holds if more', () => {
  assert.equal(changesForNextSnapshot(null, 10_000), 10_000);
  assert.equal(changesForNextSnapshot({ position: 9, changes: 12_000, held: 3_000 }, 10_000), 22_000, 'history that stopped mattering');
  assert.equal(changesForNextSnapshot({ position: 9, changes: 50_000, held: 48_000 }, 10_000), 74_000, 'history that still matters');
  assert.equal(changesForNextSnapshot({ position: 9, changes: 50_000, held: 20_001 }, 10_000), 60_000, 'half, rounded down');
  assert.equal(changesForNextSnapshot({ position: 1, changes: 5, held: 5 }, 1), 7);
});

test('only a snapshot of a later position is newer', () => {
  assert.ok(isNewer(null, { position: 1, changes: 1, held: 1 }));
  assert.ok(isNewer({ position: 4, changes: 9, held: 9 }, { position: 5, changes: 1, held: 1 }));
  assert.equal(isNewer({ position: 5, changes: 1, held: 1 }, { position: 5, changes: 99, held: 99 }), false);
  assert.equal(isNewer({ position: 6, changes: 1, held: 1 }, { position: 5, changes: 99, held: 99 }), false);
});

/** A room caught up, at its head, taking pushes, holding `held` changes, no snapshot known. */
const due = (held, more = {}) => ({ caughtUp: true, atHead: true, takesPushes: true, held, known: null, threshold: 10, ...more });

test('a snapshot is planned only when the room is caught up, at its head, takes pushes and holds enough', () => {
  for (const [name, state] of [
    ['not caught up', due(10, { caughtUp: false })],
    ['behind its head', due(10, { atHead: false })],
    ['on view rights', due(10, { takesPushes: false })],
    ['never, by the options', due(10, { threshold: null })],
    ['short of the threshold', due(9)],
    ['short of the threshold past the newest known', due(19, { known: { position: 3, changes: 10, held: 10 } })],
  ]) {
    assert.equal(new SnapshotPlan().consider(state), null, name);
  }
  const plan = new SnapshotPlan();
  assert.notEqual(plan.consider(due(10)), null);
  assert.ok(plan.planned);
  assert.notEqual(new SnapshotPlan().consider(due(20, { known: { position: 3, changes: 10, held: 10 } })), null);
});

test('one plan at a time: one asked for meanwhile is considered once it is done, and only then', () => {
  const plan = new SnapshotPlan();
  const first = /** @type {number} */ (plan.consider(due(10)));
  assert.equal(plan.done(first), false, 'nothing asked for meanwhile');
  const second = /** @type {number} */ (plan.consider(due(10)));
  assert.equal(plan.consider(due(10)), null, 'planned already');
  assert.equal(plan.consider(due(3)), null);
  assert.equal(plan.done(second), true, 'asked for meanwhile: consider again');
  assert.equal(plan.planned, false);
  assert.equal(plan.done(second), false, 'done once');
});

test('a new connection forgets the last one’s plans: their end changes nothing of the next', () => {
  const plan = new SnapshotPlan();
  const old = /** @type {number} */ (plan.consider(due(10)));
  plan.consider(due(10));
  plan.reset();
  assert.equal(plan.planned, false);
  const fresh = /** @type {number} */ (plan.consider(due(10)));
  assert.notEqual(fresh, old);
  assert.equal(plan.done(old), false, 'the old plan ends without a word');
  assert.ok(plan.planned, 'the new one is still under way');
  assert.equal(plan.done(fresh), false, 'nothing asked for on this connection meanwhile');
});
