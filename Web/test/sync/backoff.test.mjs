// Reconnection delays and push pacing, as Swift's BackoffTests and PushPacerTests.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Backoff } from '../../js/sync/backoff.js';
import { PushPacer } from '../../js/sync/push-pacer.js';
import { seededRandom } from '../../js/sync/random.js';
import { randomFor } from './support/random.mjs';

test('the ceiling doubles from twice the minimum up to the maximum', () => {
  const backoff = new Backoff({ minimum: 100, maximum: 1_000 });
  assert.deepEqual([0, 1, 2, 3, 4, 10].map((attempt) => backoff.ceiling(attempt)), [200, 400, 800, 1_000, 1_000, 1_000]);
  assert.throws(() => new Backoff({ minimum: 0 }), RangeError);
  assert.throws(() => new Backoff({ minimum: 10, maximum: 5 }), RangeError);
});

test('delays stay between the minimum and the ceiling, and replay from a seed', (t) => {
  const { seed } = randomFor(t);
  const backoff = new Backoff({ minimum: 100, maximum: 10_000 });
  const first = seededRandom(seed);
  const second = seededRandom(seed);
  for (let attempt = 0; attempt < 20; attempt++) {
    const delay = backoff.delay(attempt, first);
    assert.ok(delay >= 100 && delay <= backoff.ceiling(attempt), `attempt ${attempt}: ${delay}`);
    assert.equal(backoff.delay(attempt, second), delay);
  }
});

test('the pacer lets a burst through, then spaces pushes at its rate', () => {
  const pacer = new PushPacer({ rate: 10, burst: 2, now: 0 });
  assert.equal(pacer.delay(0), 0);
  assert.equal(pacer.delay(0), 0);
  assert.equal(pacer.delay(0), 100);
  assert.equal(pacer.delay(0), 200);
  assert.equal(pacer.delay(1_000), 0, 'a quiet second refills the bucket');
});
