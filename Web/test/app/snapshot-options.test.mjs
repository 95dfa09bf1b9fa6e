// When the page sends room snapshots, from its address (js/app/snapshot-options.js): what a test or a user
// gives, and nothing for what is absent or not a number, so the session's defaults hold.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snapshotOptionsFrom } from '../../js/app/snapshot-options.js';

test('the snapshot threshold, in changes, and delay, in seconds, come from the page parameters', () => {
  assert.deepEqual(snapshotOptionsFrom(''), {});
  assert.deepEqual(snapshotOptionsFrom('?snapshot-threshold=12&snapshot-delay=0'), { snapshotThreshold: 12, snapshotDelay: 0 });
  assert.deepEqual(snapshotOptionsFrom('?review-after=0&snapshot-delay=2.5'), { snapshotDelay: 2500 });
  assert.deepEqual(snapshotOptionsFrom('?cap=x&snapshot-threshold=1'), { snapshotThreshold: 1 });
});

test('a threshold that is not a whole number of changes, or a delay that is not a time, is left to the defaults', () => {
  for (const search of ['?snapshot-threshold=0', '?snapshot-threshold=-3', '?snapshot-threshold=2.5', '?snapshot-threshold=many', '?snapshot-threshold=']) {
    assert.deepEqual(snapshotOptionsFrom(search), {}, search);
  }
  for (const search of ['?snapshot-delay=-1', '?snapshot-delay=soon', '?snapshot-delay=', '?snapshot-delay=Infinity']) {
    assert.deepEqual(snapshotOptionsFrom(search), {}, search);
  }
});
