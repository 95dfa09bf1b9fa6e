// When the page settles (docs/ARCHITECTURE.md, "Settling"): once 256 or more of the user's changes on a
// board lie below the oldest one open in the undo or redo stack, unsettled, a change settles them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Author, isUndoStep } from '../../js/model/author.js';
import { Board } from '../../js/model/board.js';
import { UndoHistory } from '../../js/model/undo-history.js';
import { SETTLE_AFTER } from '../../js/model/unsettled-changes.js';
import { add, line, strokeOf } from './support/authors.mjs';

const REPLICA = `01${'0'.repeat(28)}01`;

/**
 * An author with a ticking clock, and a board that takes its changes as a session does; every settle
 * is checked to change nothing visible.
 */
function drawing(undoCapacity) {
  let wall = 1_800_000_000_000;
  const author = new Author({ replica: REPLICA, now: () => ++wall, undoCapacity });
  const board = new Board('main');
  const settles = [];
  /** Makes, applies and returns one change, then the settle if one is due. */
  const make = (change) => {
    if (change === null) return null;
    board.apply(change);
    const settle = author.settle(board);
    if (settle !== null) {
      const before = board.hash();
      board.apply(settle);
      assert.equal(board.hash(), before, 'settling changes nothing visible');
      settles.push(settle);
    }
    return change;
  };
  return {
    author,
    board,
    settles,
    stroke: () => make(author.makeChange(board, [add(line(2, author.seq))])),
    undo: () => make(author.undo(board)),
    redo: () => make(author.redo(board)),
  };
}

test('a settle follows once 256 closed changes gather below the oldest open one', () => {
  const page = drawing(20);
  for (let i = 0; i < 10; i++) page.stroke();
  const undone = page.undo().operations[0].change;
  assert.equal(undone.seq, 10);
  while (page.board.visibleStrokeCount < 299) page.stroke();
  // Steps 1…9 and 12…k, 20 of them open: at k = 276, changes 1…256 are below seq 257, the oldest open.
  assert.equal(page.settles.length, 1);
  const [settle] = page.settles;
  assert.equal(settle.id.seq, 277);
  assert.deepEqual(settle.operations, [{ op: 'settle', through: 256, inactive: [10] }]);
  assert.ok(!isUndoStep(settle.operations));
  assert.equal(page.author.unsettled('main').through, 256);
  assert.equal(page.board.settledThrough(REPLICA), 256);

  const history = page.author.history('main');
  assert.equal(history.done.length, 20);
  assert.ok(history.done.every((change) => change.seq > 256 && change.seq !== 277));
  for (let i = 0; i < 20; i++) assert.notEqual(page.undo(), null);
  assert.equal(page.undo(), null);
  assert.equal(page.board.visibleStrokeCount, 299 - 20);
});

test('with the default history of 500, the first settle waits for change 756', () => {
  const page = drawing(500);
  for (let i = 0; i < 755; i++) page.stroke();
  assert.equal(page.settles.length, 0);
  page.stroke();
  const settles = page.settles.map((change) => [change.id.seq, change.operations]);
  assert.deepEqual(settles, [[757, [{ op: 'settle', through: 256, inactive: [] }]]]);
});

test('an undone change stays open, holding the settle back, until a new step drops it', () => {
  const page = drawing(10);
  const first = page.stroke();
  for (let i = 0; i < 9; i++) page.stroke();
  for (let i = 0; i < 10; i++) page.undo();
  assert.equal(page.author.history('main').oldestOpen.seq, first.id.seq);
  // Appends are no steps: they leave the redo stack as it is.
  for (let i = 0; i < SETTLE_AFTER + 10; i++) {
    const more = { op: 'appendPoints', stroke: strokeOf(first), points: [[i, 0]], pressures: null };
    page.board.apply(page.author.makeChange(page.board, [more]));
  }
  assert.equal(page.author.settle(page.board), null);
  page.redo();
  page.undo();
  assert.equal(page.settles.length, 0);
  const step = page.stroke();
  assert.deepEqual(page.settles.map((change) => change.operations), [
    [{ op: 'settle', through: step.id.seq - 1, inactive: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }],
  ]);
});

test('the oldest open change is in either stack', () => {
  const history = new UndoHistory();
  const id = (seq) => ({ replica: REPLICA, seq });
  assert.equal(history.oldestOpen, null);
  history.record(id(3));
  history.record(id(5));
  assert.deepEqual(history.oldestOpen, id(3));
  history.undo();
  history.undo();
  assert.deepEqual([history.done, history.oldestOpen], [[], id(3)]);
  history.redo();
  assert.deepEqual(history.oldestOpen, id(3));
  history.forget((change) => change.seq <= 3);
  assert.deepEqual(history.oldestOpen, id(5));
});

test('a settle the author makes by hand closes what it covers, and a malformed one nothing', () => {
  const page = drawing(500);
  for (let i = 0; i < 5; i++) page.stroke();
  page.author.makeChange('main', [{ op: 'settle', through: 6, inactive: [] }]);
  assert.equal(page.author.history('main').done.length, 5);
  assert.equal(page.author.unsettled('main').through, 0);
  page.author.makeChange('main', [{ op: 'settle', through: 3, inactive: [] }]);
  assert.deepEqual(page.author.history('main').done.map((change) => change.seq), [4, 5]);
  assert.equal(page.author.unsettled('main').through, 3);
});
