// When the page asks again for a room the server does not know (js/sync/unknown-room-retry.js), on a fake
// clock: as Swift's SyncClient.askAgainLater, 1 s doubling to a minute, jittered in the upper half.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UNKNOWN_ROOM_BACKOFF, UnknownRoomRetry, unknownRoomDelay } from '../../js/sync/unknown-room-retry.js';

/** Timers that fire only when the test moves the time on. */
class FakeClock {
  now = 0;
  #next = 1;
  /** @type {Map<number, {at: number, f: () => void}>} */
  #timers = new Map();

  setTimeout = (f, ms) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.now + ms, f });
    return id;
  };

  clearTimeout = (id) => {
    this.#timers.delete(id);
  };

  /** Moves the time on by `ms`, firing what falls due, in order. */
  advance(ms) {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.#timers.delete(due[0]);
      this.now = due[1].at;
      due[1].f();
    }
    this.now = end;
  }

  get pending() {
    return this.#timers.size;
  }
}

const lowest = () => 0;
const highest = () => 1 - Number.EPSILON;

test('delays double from 1 s to a minute, each drawn in the upper half of its ceiling', () => {
  assert.deepEqual(UNKNOWN_ROOM_BACKOFF, { first: 1_000, longest: 60_000 });
  const ceilings = [0, 1, 2, 3, 4, 5, 6, 7, 20, 1_000].map((attempt) => unknownRoomDelay(attempt, highest));
  assert.deepEqual(ceilings, [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000]);
  const floors = [0, 1, 6, 1_000].map((attempt) => unknownRoomDelay(attempt, lowest));
  assert.deepEqual(floors, [500, 1_000, 30_000, 30_000]);
  assert.equal(unknownRoomDelay(2, () => 0.5), 3_000);
  assert.equal(unknownRoomDelay(-1, highest), 1_000, 'a negative attempt is the first');
  assert.equal(unknownRoomDelay(1, highest, { first: 10, longest: 25 }), 20, 'tests may shorten it');
  assert.equal(unknownRoomDelay(2, highest, { first: 10, longest: 25 }), 25);
});

test('a refusal asks again after its delay, not before; each refusal in a row waits twice as long', () => {
  const clock = new FakeClock();
  const asked = [];
  const retry = new UnknownRoomRetry({ ask: () => asked.push(clock.now), timers: clock, random: highest });
  assert.equal(retry.refused(), 1_000);
  assert.equal(retry.scheduled, true);
  clock.advance(999);
  assert.deepEqual(asked, [], 'not before the delay');
  clock.advance(1);
  assert.deepEqual(asked, [1_000]);
  assert.equal(retry.scheduled, false);
  assert.equal(retry.refused(), 2_000, 'refused again: twice as long');
  assert.equal(retry.refused(), 4_000, 'a refusal while one is scheduled replaces it, counting one more');
  clock.advance(10_000);
  assert.deepEqual(asked, [1_000, 5_000], 'asked once, after the replacing delay');
  assert.equal(retry.attempts, 3);
  for (let i = 0; i < 10; i++) retry.refused();
  assert.equal(retry.refused(), 60_000, 'never longer than a minute');
});

test('a grant, or the network coming back, starts over with nothing scheduled; a closed connection only drops the request', () => {
  const clock = new FakeClock();
  let asked = 0;
  const retry = new UnknownRoomRetry({ ask: () => asked++, timers: clock, random: highest });
  retry.refused();
  retry.refused();
  retry.refused();
  retry.granted();
  assert.deepEqual([retry.attempts, retry.scheduled, clock.pending], [0, false, 0]);
  clock.advance(120_000);
  assert.equal(asked, 0, 'found: not asked again');
  assert.equal(retry.refused(), 1_000, 'a later refusal (a restored server) starts at the shortest delay');

  retry.refused();
  retry.reset();
  assert.deepEqual([retry.attempts, retry.scheduled], [0, false], 'the network came back: its connection subscribes at once');

  retry.refused();
  retry.refused();
  retry.cancel();
  assert.deepEqual([retry.attempts, retry.scheduled], [2, false], 'the connection ended: the count goes on');
  clock.advance(120_000);
  assert.equal(asked, 0);
  assert.equal(retry.refused(), 4_000);
});

test('the jitter comes from the random source it is given', () => {
  const clock = new FakeClock();
  const draws = [0.25, 0.75];
  const retry = new UnknownRoomRetry({ ask: () => {}, timers: clock, random: () => draws.shift(), backoff: { first: 100, longest: 1_000 } });
  assert.equal(retry.refused(), 63); // 100 × (0.5 + 0.125), rounded
  assert.equal(retry.refused(), 175); // 200 × 0.875
});
