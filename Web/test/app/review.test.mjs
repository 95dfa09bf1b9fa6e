// The review banner's words and the names it uses (js/app/review.js), and the sharing preferences
// (js/app/sharing.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KnownPeople, listNames, reviewSummary, shortId } from '../../js/app/review.js';
import { loadPaused, reviewAfterFrom, savePaused } from '../../js/app/sharing.js';

class MemoryStorage {
  items = new Map();
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}

const refusing = {
  getItem() {
    throw new Error('denied');
  },
  setItem() {
    throw new Error('denied');
  },
  removeItem() {
    throw new Error('denied');
  },
};

test('authors are listed by name, a few at most, then counted', () => {
  assert.equal(listNames([]), 'someone');
  assert.equal(listNames(['Ada']), 'Ada');
  assert.equal(listNames(['Ada', 'Bo']), 'Ada and Bo');
  assert.equal(listNames(['Ada', 'Bo', 'Cy']), 'Ada, Bo and Cy');
  assert.equal(listNames(['Ada', 'Bo', 'Cy', 'Di']), 'Ada, Bo, Cy and Di', 'one more is named, not counted');
  assert.equal(listNames(['Ada', 'Bo', 'Cy', 'Di', 'Ed']), 'Ada, Bo, Cy and 2 others');
  assert.equal(listNames(['Ada', 'Ada', 'Bo']), 'Ada and Bo', 'one person with two timelines is named once');
  assert.equal(listNames(['Ada', 'Bo', 'Cy'], 1), 'Ada and 2 others');
});

test('the banner says how many changes arrived and from whom', () => {
  assert.equal(reviewSummary(2, ['Amber Otter']), '2 changes from Amber Otter arrived');
  assert.equal(reviewSummary(1, ['Amber Otter']), '1 change from Amber Otter arrived');
  assert.equal(reviewSummary(7, ['A', 'B']), '7 changes from A and B arrived');
});

test('people are named as shown now, else as last seen, else by a short id; names are kept across visits', () => {
  const storage = new MemoryStorage();
  const replica = '3fa2c1'.padEnd(32, '0');
  const other = 'bb'.repeat(16);
  const known = new KnownPeople(storage);
  assert.equal(shortId(replica), '3fa2c1');
  assert.equal(known.label(replica), '3fa2c1');
  assert.equal(known.remember(replica, { name: 'Amber Otter', colour: 0 }), true);
  assert.equal(known.remember(other, { name: '  ', colour: 0 }), false);
  assert.equal(known.label(replica), 'Amber Otter');
  assert.equal(known.label(other), 'bbbbbb', 'a blank name is no name');
  assert.equal(known.label(replica, new Map([[replica, { name: 'Calm Wren' }]])), 'Calm Wren', 'the name shown now wins');
  assert.equal(new KnownPeople(storage).label(replica), 'Amber Otter', 'kept for the next visit');
  const writes = storage.items.get('inkwell.people');
  assert.equal(known.remember(replica, { name: 'Amber Otter', colour: 1 }), false, 'the same name again');
  assert.equal(storage.items.get('inkwell.people'), writes, 'not written again');
  for (let i = 0; i < 250; i++) known.remember(i.toString(16).padStart(32, '0'), { name: `P${i}` });
  const kept = JSON.parse(storage.items.get('inkwell.people'));
  assert.equal(kept.length, 200, 'a bounded list, the oldest dropped');
  assert.equal(new KnownPeople(storage).label((249).toString(16).padStart(32, '0')), 'P249');
  assert.equal(new KnownPeople(refusing).label(replica), '3fa2c1', 'storage refused: short ids');
  storage.items.set('inkwell.people', '{damaged');
  assert.equal(new KnownPeople(storage).label(replica), '3fa2c1');
});

test('a paused room stays paused across visits; other rooms share', () => {
  const storage = new MemoryStorage();
  assert.equal(loadPaused(storage, 'r1'), false);
  savePaused(storage, 'r1', true);
  assert.equal(loadPaused(storage, 'r1'), true);
  assert.equal(loadPaused(storage, 'r2'), false);
  savePaused(storage, 'r1', false);
  assert.equal(loadPaused(storage, 'r1'), false);
  assert.equal(storage.items.size, 0, 'nothing kept for a room that shares');
  assert.equal(loadPaused(refusing, 'r1'), false);
  assert.doesNotThrow(() => savePaused(refusing, 'r1', true));
  assert.equal(loadPaused(null, 'r1'), false);
});

test('the review threshold comes from the page parameter, in seconds', () => {
  assert.equal(reviewAfterFrom(''), undefined);
  assert.equal(reviewAfterFrom('?review-after=0'), 0);
  assert.equal(reviewAfterFrom('?x=1&review-after=2.5'), 2500);
  assert.equal(reviewAfterFrom('?review-after='), undefined);
  assert.equal(reviewAfterFrom('?review-after=-1'), undefined);
  assert.equal(reviewAfterFrom('?review-after=soon'), undefined);
});
