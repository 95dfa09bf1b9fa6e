import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countEdits, strokesContinued } from '../../js/sync/edit-count.js';

const a = 'aa'.repeat(16);
const b = 'bb'.repeat(16);
const change = (replica, seq, operations) => ({ id: { replica, seq }, operations });
const append = (replica, seq) => ({ op: 'appendPoints', stroke: `${replica}-${seq}-0`, points: [[1, 2]], pressures: null });

test('a change continues strokes only when every operation appends to a stroke of its own timeline', () => {
  assert.deepEqual(strokesContinued(change(a, 4, [append(a, 1)])), [`${a}-1`]);
  assert.deepEqual(strokesContinued(change(a, 4, [append(a, 1), append(a, 2)])), [`${a}-1`, `${a}-2`]);
  assert.equal(strokesContinued(change(a, 4, [append(b, 1)])), null, "another timeline's stroke");
  assert.equal(strokesContinued(change(a, 4, [append(a, 1), { op: 'addStroke', points: [[0, 0]] }])), null);
  assert.equal(strokesContinued(change(a, 4, [])), null);
  assert.equal(strokesContinued(change(a, 4, [{ op: 'appendPoints', stroke: 'not an id' }])), null);
});

test('edits count a change that continues strokes begun among the same changes with them', () => {
  const continued = new Map([
    [`${a}-2`, [`${a}-1`]],
    [`${a}-3`, [`${a}-1`]],
    [`${a}-9`, [`${a}-8`]],
  ]);
  const count = (keys) => countEdits(keys, (key) => continued.get(key));
  assert.equal(count([`${a}-1`, `${a}-2`, `${a}-3`]), 1, 'a stroke and its appends');
  assert.equal(count([`${a}-2`, `${a}-3`]), 2, 'appends whose stroke is not among them');
  assert.equal(count([`${a}-1`, `${a}-2`, `${a}-9`]), 2, 'an append of a stroke begun elsewhere is an edit');
  assert.equal(count([`${a}-1`, `${a}-1`]), 1, 'a key once');
  assert.equal(count([]), 0);
});
