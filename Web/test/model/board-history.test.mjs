// The board's history (js/model/board-history.js): the past rebuilt from a prefix of the total order, and a
// restore that makes the board look exactly as it did, over the random session of Conformance/board.json
// (three replicas, every kind of operation, shuffled with repeats).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { boardAt, restoreOperations, timeline } from '../../js/model/board-history.js';
import { strokeId } from '../../js/model/ids.js';
import { boardCases } from './support/vectors.mjs';

const cases = boardCases(new URL('../../../Conformance/board.json', import.meta.url));
const session = cases.find((testCase) => testCase.name === 'random session').changes;
const RESTORER = '0f000000000000000000000000000042';

/** What a board shows, ids aside: each stroke's look, bottom to top. */
function appearance(board) {
  return board.strokes().map(({ colour, width, transform, points, pressures, pieces, text }) => ({ colour, width, transform, points, pressures, pieces, text }));
}

/** A change of the restorer's after every change of `history`. */
function restoring(history, operations) {
  const last = history[history.length - 1].stamp;
  return { id: { replica: RESTORER, seq: 1 }, stamp: { wall: last.wall + 1, counter: 0 }, board: 'main', operations };
}

test('the timeline is the total order, each change once', () => {
  const history = timeline([...session, ...session.slice(0, 5), { ...session[0], board: 'other' }], 'main');
  assert.equal(history.length, new Set(session.map((change) => `${change.id.replica}-${change.id.seq}`)).size);
  for (let i = 1; i < history.length; i++) {
    const [a, b] = [history[i - 1].stamp, history[i].stamp];
    assert.ok(a.wall < b.wall || (a.wall === b.wall && a.counter <= b.counter));
  }
  const whole = new Board('main');
  whole.applyAll(session);
  assert.equal(boardAt(history, history.length, 'main').hash(), whole.hash());
  assert.equal(boardAt(history, 0, 'main').visibleStrokeCount, 0);
});

test('restoring any earlier point makes the board look exactly as it did then', () => {
  const history = timeline(session, 'main');
  const current = boardAt(history, history.length, 'main');
  let copied = 0;
  for (let count = 0; count <= history.length; count += 7) {
    const past = boardAt(history, count, 'main');
    const operations = restoreOperations(current, past, (i) => strokeId({ replica: RESTORER, seq: 1 }, i));
    copied += operations.filter((operation) => operation.op === 'addStroke').length;
    const restored = boardAt(history, history.length, 'main');
    restored.apply(restoring(history, operations));
    restored.checkInvariants();
    assert.deepEqual(appearance(restored), appearance(past), `restoring to change ${count}`);
    // Undoing the restore gives back the board as it was before it.
    restored.apply({ ...restoring(history, [{ op: 'undo', change: { replica: RESTORER, seq: 1 } }]), id: { replica: RESTORER, seq: 2 } });
    assert.equal(restored.hash(), current.hash(), `undoing the restore to change ${count}`);
  }
  assert.ok(copied > 0, 'some restore had to draw a stroke again');
});

test('restoring the present writes nothing', () => {
  const history = timeline(session, 'main');
  const current = boardAt(history, history.length, 'main');
  assert.deepEqual(restoreOperations(current, boardAt(history, history.length, 'main'), () => 'x'), []);
});

test('the page restores exactly as Swift does (Conformance/history.json)', () => {
  const vectors = JSON.parse(readFileSync(new URL('../../../Conformance/history.json', import.meta.url), 'utf8'));
  const history = timeline(session, 'main');
  assert.deepEqual(history.map((change) => change.id), vectors.timeline);
  const current = boardAt(history, history.length, 'main');
  assert.ok(vectors.cases.length >= 5);
  for (const testCase of vectors.cases) {
    const past = boardAt(history, testCase.count, 'main');
    assert.equal(past.hash(), testCase.pastHash, `the board after ${testCase.count} changes`);
    const { id } = testCase.restore;
    assert.deepEqual(restoreOperations(current, past, (i) => strokeId(id, i)), testCase.restore.operations, `restoring to ${testCase.count}`);
    const restored = boardAt(history, history.length, 'main');
    restored.apply(testCase.restore);
    assert.equal(restored.hash(), testCase.restoredHash);
  }
});
