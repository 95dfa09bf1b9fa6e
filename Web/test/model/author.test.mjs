// The local author and its undo history, after Tests/InkwellBoardTests/UndoHistoryTests.swift.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Author } from '../../js/model/author.js';
import { Board } from '../../js/model/board.js';
import { compareChanges } from '../../js/model/ids.js';
import { UndoHistory } from '../../js/model/undo-history.js';
import { add, line, strokeOf, testAuthor } from './support/authors.mjs';

test('changes get contiguous seqs and ever-greater stamps, after anything witnessed', () => {
  let wall = 1_000;
  const author = new Author({ replica: 'AB'.repeat(16), lastSeq: 41, now: () => wall });
  assert.equal(author.replica, 'ab'.repeat(16));
  const first = author.makeChange('main', [add(line(2))]);
  const second = author.makeChange('main', [add(line(2))]);
  assert.deepEqual([first.id.seq, second.id.seq], [42, 43]);
  assert.deepEqual(second.stamp, { wall: 1_000, counter: 1 });
  const skew = author.witness({ wall: 1_000 + 120_000, counter: 5 });
  assert.equal(skew.aheadMilliseconds, 120_000);
  const third = author.makeChange('main', [add(line(2))]);
  assert.deepEqual(third.stamp, { wall: 121_000, counter: 6 });
  assert.ok(compareChanges(second, third) < 0);
  wall = 200_000;
  assert.deepEqual(author.makeChange('main', [{ op: 'clear' }]).stamp, { wall: 200_000, counter: 0 });
});

test('a refused change uses up no seq', () => {
  const author = testAuthor(1);
  assert.throws(() => author.makeChange('', [add(line(2))]), TypeError);
  assert.throws(() => author.makeChange('main', []), TypeError);
  assert.equal(author.seq, 0);
  assert.equal(author.makeChange(new Board('main'), [add(line(2))]).id.seq, 1, 'a Board names its board');
});

test('undo and redo walk the user’s own changes, per board', () => {
  const alice = testAuthor(1);
  const board = new Board('main');
  const first = alice.makeChange(board, [add(line(3))]);
  const second = alice.makeChange(board, [add(line(3, 5))]);
  alice.makeChange('other', [add(line(3))]);
  board.applyAll([first, second]);

  const undo = alice.undo(board);
  assert.deepEqual(undo.operations, [{ op: 'undo', change: second.id }]);
  board.apply(undo);
  assert.deepEqual(board.strokes().map((s) => s.id), [strokeOf(first)]);

  const redo = alice.redo(board);
  assert.deepEqual(redo.operations, [{ op: 'redo', change: second.id }]);
  board.apply(redo);
  assert.equal(board.visibleStrokeCount, 2);
  assert.equal(alice.redo(board), null);
  assert.equal(alice.history('other').done.length, 1);
});

test('undoing a clear and a partial erase brings back what they hid', () => {
  const alice = testAuthor(1);
  const board = new Board('main');
  const drawn = alice.makeChange(board, [add(line(6))]);
  const erase = alice.makeChange(board, [{ op: 'erase', stroke: strokeOf(drawn), intervals: [[1, 2.5]] }]);
  const clear = alice.makeChange(board, [{ op: 'clear' }]);
  board.applyAll([drawn, erase, clear]);
  assert.equal(board.visibleStrokeCount, 0);
  board.apply(alice.undo(board));
  assert.deepEqual(board.stroke(strokeOf(drawn)).pieces, [[0, 1], [2.5, 5]]);
  board.apply(alice.undo(board));
  assert.deepEqual(board.stroke(strokeOf(drawn)).pieces, [[0, 5]]);
  board.apply(alice.redo(board));
  assert.deepEqual(board.stroke(strokeOf(drawn)).pieces, [[0, 1], [2.5, 5]]);
});

test('a streamed stroke is one undo step: appends are not steps of their own', () => {
  const alice = testAuthor(1);
  const board = new Board('main');
  const start = alice.makeChange(board, [add(line(2))]);
  const more = alice.makeChange(board, [{ op: 'appendPoints', stroke: strokeOf(start), points: [[20, 0]], pressures: null }]);
  board.applyAll([start, more]);
  const undo = alice.undo(board);
  assert.deepEqual(undo.operations, [{ op: 'undo', change: start.id }]);
  board.apply(undo);
  assert.equal(board.visibleStrokeCount, 0);
  assert.equal(alice.undo(board), null);
});

test('withdrawing an abandoned action undoes its step for good, and only the latest step', () => {
  const alice = testAuthor(1);
  const board = new Board('main');
  const before = alice.makeChange(board, [add(line(2))]);
  const start = alice.makeChange(board, [add(line(2, { y: 50 }))]);
  const more = alice.makeChange(board, [{ op: 'appendPoints', stroke: strokeOf(start), points: [[20, 50]], pressures: null }]);
  board.applyAll([before, start, more]);
  assert.equal(alice.withdraw(board, before.id), null, 'not the latest step: nothing is withdrawn');
  const withdrawn = alice.withdraw(board, start.id);
  assert.deepEqual(withdrawn.operations, [{ op: 'undo', change: start.id }]);
  board.apply(withdrawn);
  assert.equal(board.visibleStrokeCount, 1);
  assert.equal(alice.redo(board), null, 'redo cannot bring it back');
  assert.deepEqual(alice.undo(board).operations, [{ op: 'undo', change: before.id }], 'undo goes on from the step before');
});

test('a new action clears redo; capacity and forgetting as in Swift', () => {
  const history = new UndoHistory();
  const id = (seq) => ({ replica: '01'.repeat(16), seq });
  history.record(id(1));
  history.undo();
  assert.ok(history.canRedo);
  history.record(id(2));
  assert.ok(!history.canRedo);
  assert.deepEqual(history.undo(), [{ op: 'undo', change: id(2) }]);
  assert.equal(history.undo(), null);
  assert.equal(history.letGo, false, 'every step it took is still reachable');

  const small = new UndoHistory(3);
  for (let seq = 1; seq <= 3; seq++) small.record(id(seq));
  small.forget((change) => change.seq > 9);
  assert.equal(small.letGo, false, 'forgetting nothing lets nothing go');
  for (let seq = 4; seq <= 5; seq++) small.record(id(seq));
  assert.deepEqual(small.done, [id(3), id(4), id(5)]);
  assert.equal(small.letGo, true, 'steps past the capacity are let go');
  const settled = new UndoHistory(3);
  settled.record(id(1));
  settled.forget((change) => change.seq <= 1);
  assert.equal(settled.letGo, true, 'a settled step is let go');
  small.forget((change) => change.seq <= 4);
  assert.deepEqual(small.done, [id(5)]);
  assert.throws(() => new UndoHistory(0), RangeError);
});

test('typing into one box joins one step, which one undo takes back whole, newest first', () => {
  const history = new UndoHistory();
  const id = (seq) => ({ replica: '01'.repeat(16), seq });
  history.record(id(1), 'box');
  history.join(id(2), 'box');
  history.join(id(3), 'box');
  history.join(id(4), 'other');
  history.record(id(5));
  history.join(id(6), 'box');
  assert.deepEqual(history.undo(), [{ op: 'undo', change: id(6) }], 'a stroke between ends the burst');
  assert.deepEqual(history.undo(), [{ op: 'undo', change: id(5) }]);
  assert.deepEqual(history.undo(), [{ op: 'undo', change: id(4) }]);
  assert.deepEqual(
    history.undo(),
    [3, 2, 1].map((seq) => ({ op: 'undo', change: id(seq) })),
  );
  assert.deepEqual(
    history.redo(),
    [1, 2, 3].map((seq) => ({ op: 'redo', change: id(seq) })),
  );
  history.join(id(7), 'box');
  assert.deepEqual(history.undone, [], 'typing clears what could be redone');
  history.join(id(8), 'box');
  assert.deepEqual(history.undo(), [8, 7].map((seq) => ({ op: 'undo', change: id(seq) })), 'typing after a redo is a step');
  history.forget((change) => change.seq <= 2);
  assert.equal(history.oldestOpen.seq, 3);
});

test('a pause in typing, or the editor closing, ends a burst', () => {
  const history = new UndoHistory();
  const id = (seq) => ({ replica: '01'.repeat(16), seq });
  history.record(id(1), 'box', 1_000);
  history.join(id(2), 'box', 6_000);
  history.join(id(3), 'box', 11_001);
  assert.deepEqual(history.undo(), [{ op: 'undo', change: id(3) }], 'more than five seconds apart');
  history.redo();
  history.endBurst();
  history.join(id(4), 'box', 11_002);
  assert.deepEqual(history.undo(), [{ op: 'undo', change: id(4) }], 'the editor closed in between');
  assert.deepEqual(history.undo(), [{ op: 'undo', change: id(3) }]);
  assert.deepEqual(history.undo(), [2, 1].map((seq) => ({ op: 'undo', change: id(seq) })));
});

test('a burst of typing into a new box is one undo step, rebuilt alike after a reload', async () => {
  const { resumeAuthor } = await import('../../js/sync/resume-author.js');
  const replica = '02'.repeat(16);
  const author = new Author({ replica, now: () => 1_800_000_000_000 });
  const box = `${replica}-1-0`;
  const made = [
    author.makeChange('main', [
      { op: 'addText', colour: 255, size: 20, at: [0, 0] },
      { op: 'insertText', box, after: null, text: 'H' },
    ]),
    author.makeChange('main', [{ op: 'insertText', box, after: { run: `${replica}-1-1`, offset: 0 }, text: 'i' }]),
    author.makeChange('main', [{ op: 'deleteText', box, ranges: [{ run: `${replica}-2-0`, from: 0, to: 1 }] }]),
  ];
  const expected = made.toReversed().map((change) => ({ op: 'undo', change: change.id }));
  const resumed = resumeAuthor({ replica, lastSeq: 3, board: 'main', changes: made });
  assert.deepEqual(author.undo('main').operations, expected);
  assert.deepEqual(resumed.undo('main').operations, expected);
  assert.equal(author.undo('main'), null);
});
