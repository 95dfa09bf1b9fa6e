// The page's clock corrected by the server's, as Swift's ServerCorrectedClock.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServerClock } from '../../js/sync/server-clock.js';

const NOW = 1_800_000_000_000;

test('a clock an hour ahead (or behind) of the server’s reads the server’s time once welcomed', () => {
  let local = NOW + 3_600_000;
  const clock = new ServerClock(() => local);
  assert.equal(clock.now(), NOW + 3_600_000, 'before any welcome: the local time');
  clock.learn(NOW);
  assert.equal(clock.offset, -3_600_000);
  assert.equal(clock.now(), NOW);
  local += 250;
  assert.equal(clock.now(), NOW + 250, 'and runs on with the local clock');
  clock.learn(NOW + 7_200_250 + 3_600_000);
  assert.equal(clock.now(), NOW + 7_200_250 + 3_600_000, 'behind: corrected too');
});

test('a second or less of disagreement is left alone, and a welcome without a time changes nothing', () => {
  const clock = new ServerClock(() => NOW);
  clock.learn(NOW - 1_000);
  assert.equal(clock.now(), NOW);
  clock.learn(NOW + 1_001);
  assert.equal(clock.now(), NOW + 1_001);
  clock.learn(0);
  assert.equal(clock.now(), NOW + 1_001, 'a server that did not say keeps the last correction');
});
