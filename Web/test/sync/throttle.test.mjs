// The throttle that paces presence (js/sync/throttle.js), on fake timers.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Throttle } from '../../js/sync/throttle.js';

/** Timers whose clock moves only when the test says, firing what falls due. */
function fakeTimers() {
  const timers = {
    time: 0,
    pending: [],
    now: () => timers.time,
    setTimeout(f, ms) {
      const timer = { at: timers.time + ms, f };
      timers.pending.push(timer);
      return timer;
    },
    clearTimeout(timer) {
      timers.pending = timers.pending.filter((each) => each !== timer);
    },
    advance(ms) {
      const end = timers.time + ms;
      for (;;) {
        const due = timers.pending.filter((each) => each.at <= end).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        timers.pending = timers.pending.filter((each) => each !== due);
        timers.time = due.at;
        due.f();
      }
      timers.time = end;
    },
  };
  return timers;
}

test('one call per interval, ending with the latest value', () => {
  const timers = fakeTimers();
  const calls = [];
  const throttle = new Throttle(100, (value) => calls.push([timers.time, value]), timers);
  throttle.submit('a');
  throttle.submit('b');
  throttle.submit('c');
  timers.advance(50);
  assert.deepEqual(calls, [[0, 'a']]);
  timers.advance(50);
  assert.deepEqual(calls, [[0, 'a'], [100, 'c']], 'b is superseded, c is never lost');
  timers.advance(500);
  throttle.submit('d');
  assert.deepEqual(calls.at(-1), [600, 'd'], 'after a quiet spell a value goes at once');
  throttle.submit('e');
  throttle.cancel();
  timers.advance(1_000);
  assert.equal(calls.length, 3, 'a cancelled wait sends nothing');
});

test('an interval of each value: ink in progress paces faster than a cursor', () => {
  const timers = fakeTimers();
  const calls = [];
  const interval = (value) => (value.ink ? 16 : 66);
  const throttle = new Throttle(interval, (value) => calls.push(timers.time), timers);
  throttle.submit({ ink: false });
  throttle.submit({ ink: false });
  timers.advance(16);
  assert.deepEqual(calls, [0], 'a cursor waits its 66 ms');
  timers.advance(50);
  assert.deepEqual(calls, [0, 66]);
  for (let i = 0; i < 10; i++) {
    timers.advance(4);
    throttle.submit({ ink: true });
  }
  timers.advance(16);
  // Submissions at 70, 74, …, 106: 82 is 16 ms after 66; the wait then ends at 98, the last one at 114.
  assert.deepEqual(calls, [0, 66, 82, 98, 114], 'ink goes once every 16 ms');
});
