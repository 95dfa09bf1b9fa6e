// Settling (docs/ARCHITECTURE.md, "Settling"): the governing settle fixes a change's activity, undo
// after it counts for nothing, a settled stroke does not grow, deleting is a tombstone; in every order.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { add, line, strokeOf, testAuthor } from './support/authors.mjs';
import { permutations } from './support/random.mjs';
import { boardAfter } from './support/boards.mjs';

/** The board every order of `changes` gives, after checking they all give the same hash. */
function inEveryOrder(changes) {
  const expected = boardAfter(changes);
  for (const order of permutations(changes)) {
    assert.equal(boardAfter(order).hash(), expected.hash(), `order ${order.map((change) => change.id.seq)}`);
  }
  return expected;
}

const settle = (through, inactive = []) => ({ op: 'settle', through, inactive });
const append = (change, points) => ({ op: 'appendPoints', stroke: strokeOf(change), points, pressures: null });
const ids = (board) => board.strokes().map((stroke) => stroke.id);

test('a settle fixes activity: undo and redo after it count for nothing', () => {
  const alice = testAuthor(1);
  const first = alice.makeChange('main', [add(line(3))]);
  const second = alice.makeChange('main', [add(line(3, 5))]);
  const settled = alice.makeChange('main', [settle(2, [2])]);
  const undo = alice.makeChange('main', [{ op: 'undo', change: first.id }]);
  const redo = alice.makeChange('main', [{ op: 'redo', change: second.id }]);
  const board = inEveryOrder([first, second, settled, undo, redo]);
  assert.deepEqual(ids(board), [strokeOf(first)]);
  assert.ok(board.isActive(first.id));
  assert.ok(!board.isActive(second.id));
  assert.equal(board.settledThrough(alice.replica), 2);
});

test('the earliest settle covering a change governs it: by the seq of its change, then its index', () => {
  const alice = testAuthor(1);
  const first = alice.makeChange('main', [add(line(3))]);
  const second = alice.makeChange('main', [add(line(3, 5))]);
  const both = alice.makeChange('main', [settle(1, [1]), settle(2, [])]);
  const later = alice.makeChange('main', [settle(2, [2])]);
  const third = alice.makeChange('main', [add(line(3, 10))]);
  const beyond = alice.makeChange('main', [settle(5, [1, 2, 5])]);
  const board = inEveryOrder([first, second, both, later, third, beyond]);
  assert.deepEqual(ids(board), [strokeOf(second)]);
  assert.deepEqual([first, second, third].map((change) => board.isActive(change.id)), [false, true, false]);
});

test('a settle arriving late revisits what it changes, and its delta names it', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const cleared = alice.makeChange('main', [{ op: 'clear' }]);
  const undo = alice.makeChange('main', [{ op: 'undo', change: drawn.id }]);
  const board = boardAfter([drawn, cleared, undo]);
  assert.equal(board.visibleStrokeCount, 0);

  // Not what an honest author lists, but a settle's word is final.
  const revived = board.apply(alice.makeChange('main', [settle(3, [2])]));
  board.checkInvariants();
  assert.deepEqual(ids(board), [strokeOf(drawn)]);
  assert.ok(revived.strokes.has(strokeOf(drawn)) && revived.everything);

  const second = alice.makeChange('main', [add(line(3, 5))]);
  board.apply(second);
  const hidden = board.apply(alice.makeChange('main', [settle(5, [5])]));
  board.checkInvariants();
  assert.ok(hidden.strokes.has(strokeOf(second)));
  assert.deepEqual(ids(board), [strokeOf(drawn)]);
});

test('undoing the change that carries a settle does nothing to the settle', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const settled = alice.makeChange('main', [settle(1, [1])]);
  const undoSettle = alice.makeChange('main', [{ op: 'undo', change: settled.id }]);
  const redo = alice.makeChange('main', [{ op: 'redo', change: drawn.id }]);
  const board = inEveryOrder([drawn, settled, undoSettle, redo]);
  assert.equal(board.visibleStrokeCount, 0);
  assert.ok(!board.isActive(settled.id));
});

test('malformed settles, and settles of other authors, change nothing', () => {
  const alice = testAuthor(1);
  const mallory = testAuthor(9);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const more = alice.makeChange('main', [append(drawn, [[30, 0]])]);
  const undo = alice.makeChange('main', [{ op: 'undo', change: drawn.id }]);
  const malformed = alice.makeChange('main', [
    settle(4),
    settle(5, [1]),
    settle(0),
    settle(2, [0]),
    settle(2, [3]),
    settle(1.5),
    settle(2, [1.5]),
    settle(Number.MAX_SAFE_INTEGER + 1),
    { op: 'settle', through: 2, inactive: 'everything' },
    { op: 'settle', inactive: [] },
    settle(2, Array.from({ length: 100_001 }, () => 1)),
  ]);
  mallory.makeChange('main', [{ op: 'clear' }]);
  const foreign = mallory.makeChange('main', [settle(1, [1]), settle(1)]);
  const board = boardAfter([drawn, more, undo, malformed, foreign]);
  assert.equal(board.settledThrough(alice.replica), 0);
  assert.equal(board.settledThrough(mallory.replica), 1);
  assert.equal(board.hash(), boardAfter([drawn, more, undo]).hash());
  board.apply(alice.makeChange('main', [{ op: 'redo', change: drawn.id }]));
  assert.deepEqual(board.stroke(strokeOf(drawn)).points, [...line(3), [30, 0]]);
  const longest = alice.makeChange('main', [settle(2, Array.from({ length: 100_000 }, () => 1))]);
  assert.ok(board.apply(longest).strokes.has(strokeOf(drawn)));
  assert.equal(board.visibleStrokeCount, 0);
});

test('a settled stroke does not grow: appends after the settle are void, whatever arrives first', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add([[0, 0]])]);
  const kept = alice.makeChange('main', [append(drawn, [[1, 0]])]);
  const settled = alice.makeChange('main', [settle(2)]);
  const late = alice.makeChange('main', [append(drawn, [[2, 0]])]);
  const later = alice.makeChange('main', [append(drawn, [[3, 0]]), append(drawn, [[4, 0]])]);
  const board = inEveryOrder([drawn, kept, settled, late, later]);
  assert.deepEqual(board.stroke(strokeOf(drawn)).points, [[0, 0], [1, 0]]);

  const grown = boardAfter([drawn, kept, late, later]);
  assert.equal(grown.stroke(strokeOf(drawn)).points.length, 5);
  const delta = grown.apply(settled);
  grown.checkInvariants();
  assert.ok(delta.strokes.has(strokeOf(drawn)));
  assert.equal(grown.hash(), board.hash());
});

test('a settle voids only appends across it: to strokes added by then, made after it', () => {
  const alice = testAuthor(1);
  const first = alice.makeChange('main', [add([[0, 0]])]);
  const early = alice.makeChange('main', [append(first, [[1, 0]])]);
  const second = alice.makeChange('main', [add([[0, 9]])]);
  const settled = alice.makeChange('main', [settle(2)]);
  const afterFirst = alice.makeChange('main', [append(first, [[2, 0]])]);
  const afterSecond = alice.makeChange('main', [append(second, [[1, 9]])]);
  const board = inEveryOrder([first, early, second, settled, afterFirst, afterSecond]);
  assert.deepEqual(board.stroke(strokeOf(first)).points, [[0, 0], [1, 0]]);
  assert.deepEqual(board.stroke(strokeOf(second)).points, [[0, 9], [1, 9]]);
});

test('any settle across an append voids it, even one that governs nothing', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add([[0, 0]])]);
  const grown = alice.makeChange('main', [append(drawn, [[1, 0]])]);
  const wide = alice.makeChange('main', [settle(2)]);
  const narrow = alice.makeChange('main', [settle(1)]);
  const board = inEveryOrder([drawn, grown, wide, narrow]);
  assert.deepEqual(board.stroke(strokeOf(drawn)).points, [[0, 0]]);
});

test('deleting is a tombstone: set(deleted: false) is ignored, and undoing every delete brings the stroke back', () => {
  const alice = testAuthor(1);
  const bob = testAuthor(2);
  const carol = testAuthor(3);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const id = strokeOf(drawn);
  const [bobDeletes, carolDeletes] = [bob, carol].map((author) => {
    author.witness(drawn.stamp);
    return author.makeChange('main', [{ op: 'set', stroke: id, attribute: 'deleted', value: true }]);
  });
  alice.witness(bobDeletes.stamp);
  alice.witness(carolDeletes.stamp);
  const restore = alice.makeChange('main', [{ op: 'set', stroke: id, attribute: 'deleted', value: false }]);
  assert.equal(inEveryOrder([drawn, bobDeletes, restore]).visibleStrokeCount, 0);
  const board = boardAfter([drawn, bobDeletes, carolDeletes, restore]);
  board.apply(bob.makeChange('main', [{ op: 'undo', change: bobDeletes.id }]));
  assert.equal(board.visibleStrokeCount, 0);
  board.apply(carol.makeChange('main', [{ op: 'undo', change: carolDeletes.id }]));
  assert.deepEqual(ids(board), [id]);
  assert.equal(boardAfter([drawn, restore]).hash(), boardAfter([drawn]).hash());
});

test('settlement lists the author’s changes on the board since its last settle that are inactive', () => {
  const alice = testAuthor(1);
  const bob = testAuthor(2);
  const board = new Board('main');
  const made = (author, operations, name = 'main') => {
    const change = author.makeChange(name, operations);
    board.apply(change);
    return change;
  };
  made(alice, [add(line(2))]);
  const undone = made(alice, [add(line(2, 5))]);
  made(alice, [{ op: 'undo', change: undone.id }]);
  const elsewhere = made(alice, [add(line(2))], 'other');
  made(alice, [{ op: 'undo', change: elsewhere.id }]);
  const bobs = made(bob, [add(line(2, 9))]);
  made(bob, [{ op: 'undo', change: bobs.id }]);
  assert.deepEqual(board.settlement(alice.replica, 5), { op: 'settle', through: 5, inactive: [2] });
  assert.deepEqual(board.settlement(alice.replica, 1), { op: 'settle', through: 1, inactive: [] });
  assert.deepEqual(board.settlement(bob.replica, 2), { op: 'settle', through: 2, inactive: [1] });

  const before = board.hash();
  made(alice, [board.settlement(alice.replica, 5)]);
  board.checkInvariants();
  assert.equal(board.hash(), before, 'an honest settle changes nothing visible');
  const again = made(alice, [add(line(2, 20))]);
  made(alice, [{ op: 'undo', change: again.id }]);
  assert.deepEqual(board.settlement(alice.replica, 8), { op: 'settle', through: 8, inactive: [7] });
  assert.equal(board.settlement(alice.replica, 5), null, 'settled that far already');
  assert.throws(() => board.settlement('nobody', 8), TypeError);
});

test('settlement settles only as far as a settle may list', () => {
  const alice = testAuthor(1);
  const board = new Board('main');
  const count = 100_002;
  const at = (seq, operations) => ({
    id: { replica: alice.replica, seq },
    stamp: { wall: seq, counter: 0 },
    board: 'main',
    operations,
  });
  for (let seq = 1; seq <= count; seq++) board.apply(at(seq, []));
  board.apply(at(count + 1, Array.from({ length: count }, (_, i) => ({ op: 'undo', change: at(i + 1, []).id }))));
  const { through, inactive } = board.settlement(alice.replica, count);
  assert.equal(through, 100_000);
  assert.equal(inactive.length, 100_000);
  assert.deepEqual([inactive[0], inactive.at(-1)], [1, 100_000]);
});
