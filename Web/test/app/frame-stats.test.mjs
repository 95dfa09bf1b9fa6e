// Frame timing figures (js/app/frame-stats.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameStats, percentile, summarise } from '../../js/app/frame-stats.js';

test('only the gaps between frames of one animation count', () => {
  const stats = new FrameStats();
  stats.frame(0, false, 1);
  stats.frame(16, true, 2);
  stats.frame(33, true, 3);
  stats.frame(5000, false, 1);
  stats.frame(5020, true, 1);
  assert.deepEqual(stats.intervals, [16, 17, 20]);
  assert.equal(stats.work.length, 5);
  stats.reset();
  assert.deepEqual(stats.intervals, []);
});

test('median and 5th-percentile frame rates', () => {
  const intervals = [...Array(95).fill(10), ...Array(5).fill(50)];
  const summary = summarise(intervals, [1, 2, 3]);
  assert.equal(summary.frames, 100);
  assert.equal(summary.medianFps, 100);
  assert.equal(summary.p5Fps, 100, 'the 95th percentile interval is still 10 ms');
  assert.equal(summarise([...intervals, 50]).p5Fps, 20);
  assert.equal(summary.medianWorkMs, 2);
  assert.equal(percentile([], 0.5), 0);
  assert.equal(summarise([]).medianFps, 0);
});

test('the ring keeps the most recent frames', () => {
  const stats = new FrameStats(3);
  for (let t = 0; t < 10; t++) stats.frame(t * 10 + (t === 9 ? 5 : 0), true, t);
  assert.deepEqual(stats.intervals, [10, 10, 15]);
  assert.deepEqual(stats.work, [7, 8, 9]);
});
