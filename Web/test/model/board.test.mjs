// Board semantics, after Tests/InkwellBoardTests/BoardSemanticsTests.swift.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { add, line, strokeOf, testAuthor } from './support/authors.mjs';
import { boardAfter } from './support/boards.mjs';

const pieces = (board, id) => board.stroke(id)?.pieces ?? null;
const ids = (board) => board.strokes().map((stroke) => stroke.id);

test('an added stroke is visible whole', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(5))]);
  const board = boardAfter([drawn]);
  assert.deepEqual(pieces(board, strokeOf(drawn)), [[0, 4]]);
  assert.deepEqual(board.strokes().map((s) => s.points), [line(5)]);
});

test('an erase before its stroke is kept', () => {
  const alice = testAuthor(1);
  const bob = testAuthor(2);
  const drawn = alice.makeChange('main', [add(line(5))]);
  bob.witness(drawn.stamp);
  const erased = bob.makeChange('main', [{ op: 'erase', stroke: strokeOf(drawn), intervals: [[1, 2.5]] }]);
  const board = boardAfter([erased, drawn]);
  assert.deepEqual(pieces(board, strokeOf(drawn)), [[0, 1], [2.5, 4]]);
  assert.deepEqual(board.canonicalEncoding(), boardAfter([drawn, erased]).canonicalEncoding());
});

test('appends land in the creator’s order whatever the arrival', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add([[0, 0]])]);
  const id = strokeOf(drawn);
  const first = alice.makeChange('main', [{ op: 'appendPoints', stroke: id, points: [[1, 0]], pressures: null }]);
  const second = alice.makeChange('main', [
    { op: 'appendPoints', stroke: id, points: [[2, 0], [3, 0]], pressures: null },
  ]);
  for (const order of [[drawn, first, second], [second, first, drawn], [first, drawn, second], [second, drawn, first]]) {
    assert.deepEqual(boardAfter(order).stroke(id).points, [[0, 0], [1, 0], [2, 0], [3, 0]]);
  }
});

test('only the creator may append, and only after the add', () => {
  const alice = testAuthor(1);
  const mallory = testAuthor(9);
  const drawn = alice.makeChange('main', [add(line(2))]);
  const hijack = mallory.makeChange('main', [
    { op: 'appendPoints', stroke: strokeOf(drawn), points: [[99, 99]], pressures: null },
  ]);
  const backwards = { ...drawn, id: { ...drawn.id, seq: 7 } };
  const early = alice.makeChange('main', [
    { op: 'appendPoints', stroke: strokeOf(backwards), points: [[5, 5]], pressures: null },
  ]);
  const board = boardAfter([drawn, hijack, early, backwards]);
  assert.deepEqual(board.stroke(strokeOf(drawn)).points, line(2));
  assert.deepEqual(board.stroke(strokeOf(backwards)).points, line(2));
});

test('undoing an erase brings back only what it hid', () => {
  const alice = testAuthor(1);
  const bob = testAuthor(2);
  const drawn = alice.makeChange('main', [add(line(11))]);
  bob.witness(drawn.stamp);
  const id = strokeOf(drawn);
  const aliceErase = alice.makeChange('main', [{ op: 'erase', stroke: id, intervals: [[1, 4]] }]);
  const bobErase = bob.makeChange('main', [{ op: 'erase', stroke: id, intervals: [[3, 6]] }]);
  const undo = alice.makeChange('main', [{ op: 'undo', change: aliceErase.id }]);
  const board = boardAfter([drawn, aliceErase, undo, bobErase]);
  assert.deepEqual(pieces(board, id), [[0, 3], [6, 10]]);
  board.apply(alice.makeChange('main', [{ op: 'redo', change: aliceErase.id }]));
  assert.deepEqual(pieces(board, id), [[0, 1], [6, 10]]);
});

test('an undo arriving before its target still applies; nobody undoes someone else’s change', () => {
  const alice = testAuthor(1);
  const mallory = testAuthor(9);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const undo = alice.makeChange('main', [{ op: 'undo', change: drawn.id }]);
  assert.equal(boardAfter([undo, drawn]).visibleStrokeCount, 0);
  const foreign = mallory.makeChange('main', [{ op: 'undo', change: drawn.id }]);
  assert.equal(boardAfter([drawn, foreign]).visibleStrokeCount, 1);
});

test('the latest attribute write wins and undo brings back the previous one', () => {
  const alice = testAuthor(1);
  const bob = testAuthor(2);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const id = strokeOf(drawn);
  bob.witness(drawn.stamp);
  const toRed = bob.makeChange('main', [{ op: 'set', stroke: id, attribute: 'colour', value: 0xff0000ff }]);
  alice.witness(toRed.stamp);
  const toBlue = alice.makeChange('main', [{ op: 'set', stroke: id, attribute: 'colour', value: 0x0000ffff }]);
  assert.equal(boardAfter([toBlue, drawn, toRed]).stroke(id).colour, 0x0000ffff);
  const undo = alice.makeChange('main', [{ op: 'undo', change: toBlue.id }]);
  assert.equal(boardAfter([drawn, toRed, toBlue, undo]).stroke(id).colour, 0xff0000ff);
  const undoBoth = bob.makeChange('main', [{ op: 'undo', change: toRed.id }]);
  assert.equal(boardAfter([drawn, toRed, toBlue, undo, undoBoth]).stroke(id).colour, 0x000000ff);
});

test('a clear hides what came before it and is undoable', () => {
  const alice = testAuthor(1);
  const bob = testAuthor(2);
  const before = alice.makeChange('main', [add(line(3))]);
  bob.witness(before.stamp);
  const clear = bob.makeChange('main', [{ op: 'clear' }]);
  alice.witness(clear.stamp);
  const after = alice.makeChange('main', [add(line(3, 5))]);
  assert.deepEqual(ids(boardAfter([after, clear, before])), [strokeOf(after)]);
  const undo = bob.makeChange('main', [{ op: 'undo', change: clear.id }]);
  assert.deepEqual(ids(boardAfter([before, after, clear, undo])), [strokeOf(before), strokeOf(after)]);
});

test('z-order stacks strokes and ties keep creation order', () => {
  const alice = testAuthor(1);
  const first = alice.makeChange('main', [add(line(2))]);
  const second = alice.makeChange('main', [add(line(2, 1))]);
  const third = alice.makeChange('main', [add(line(2, 2))]);
  const lift = alice.makeChange('main', [{ op: 'set', stroke: strokeOf(first), attribute: 'zOrder', value: 1 }]);
  assert.deepEqual(ids(boardAfter([third, lift, first, second])), [strokeOf(second), strokeOf(third), strokeOf(first)]);
});

test('deleting hides the whole stroke and undo brings it back', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(4))]);
  const remove = alice.makeChange('main', [{ op: 'set', stroke: strokeOf(drawn), attribute: 'deleted', value: true }]);
  assert.equal(boardAfter([drawn, remove]).visibleStrokeCount, 0);
  const undo = alice.makeChange('main', [{ op: 'undo', change: remove.id }]);
  assert.equal(boardAfter([drawn, remove, undo]).visibleStrokeCount, 1);
});

test('a one-point stroke is a dot until erased; erasing everything hides a stroke', () => {
  const alice = testAuthor(1);
  const dot = alice.makeChange('main', [add([[5, 5]])]);
  assert.deepEqual(pieces(boardAfter([dot]), strokeOf(dot)), [[0, 0]]);
  const eraseDot = alice.makeChange('main', [{ op: 'erase', stroke: strokeOf(dot), intervals: [[0, 0.5]] }]);
  assert.equal(boardAfter([dot, eraseDot]).visibleStrokeCount, 0);
  const drawn = alice.makeChange('main', [add(line(5))]);
  const eraseAll = alice.makeChange('main', [{ op: 'erase', stroke: strokeOf(drawn), intervals: [[0, 4]] }]);
  assert.equal(boardAfter([drawn, eraseAll]).visibleStrokeCount, 0);
});

test('undoing an append hides its points without moving later ones', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const id = strokeOf(drawn);
  const middle = alice.makeChange('main', [{ op: 'appendPoints', stroke: id, points: [[30, 0], [40, 0]], pressures: null }]);
  const last = alice.makeChange('main', [{ op: 'appendPoints', stroke: id, points: [[50, 0], [60, 0]], pressures: null }]);
  const undo = alice.makeChange('main', [{ op: 'undo', change: middle.id }]);
  const board = boardAfter([drawn, middle, last, undo]);
  assert.equal(board.stroke(id).points.length, 7);
  assert.deepEqual(pieces(board, id), [[0, 2], [5, 6]]);
});

test('pressures are 32-bit floats, as in Swift, and appends without any repeat the last', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(2), { pressures: [0.1, 0.3] })]);
  const more = alice.makeChange('main', [
    { op: 'appendPoints', stroke: strokeOf(drawn), points: [[20, 0]], pressures: null },
  ]);
  assert.deepEqual(boardAfter([more, drawn]).stroke(strokeOf(drawn)).pressures, [
    Math.fround(0.1),
    Math.fround(0.3),
    Math.fround(0.3),
  ]);
});

test('duplicates and other boards change nothing', () => {
  const alice = testAuthor(1);
  const elsewhere = testAuthor(2);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const foreign = elsewhere.makeChange('other', [add(line(3))]);
  const board = new Board('main');
  assert.deepEqual([...board.apply(drawn).strokes], [strokeOf(drawn)]);
  const bytes = board.canonicalEncoding();
  assert.equal(board.apply(drawn).strokes.size, 0);
  assert.equal(board.apply(foreign).strokes.size, 0);
  assert.deepEqual(board.canonicalEncoding(), bytes);
  assert.ok(board.contains(drawn.id) && !board.contains(foreign.id));
  assert.equal(board.changeCount, 1);
});

test('malformed operations are ignored alike', () => {
  const alice = testAuthor(1);
  const bad = [
    add([]),
    add([[NaN, 0]]),
    add([[1e300, 0]]),
    add(line(2), { width: 0 }),
    add(line(2), { width: Infinity }),
    add(line(2), { width: 1001 }),
    add(line(2), { colour: -1 }),
    add(line(2), { pressures: [0.5] }),
    add(line(2), { pressures: [0.5, 2] }),
    add([[1, 2, 3]]),
    { op: 'addStroke', colour: 255, width: 2, points: 'nope', pressures: null },
    null,
  ];
  const board = boardAfter(bad.map((op) => alice.makeChange('main', [op])));
  assert.equal(board.visibleStrokeCount, 0);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const id = strokeOf(drawn);
  const nonsense = alice.makeChange('main', [
    { op: 'erase', stroke: id, intervals: [[NaN, 1], [2, 1]] },
    { op: 'set', stroke: id, attribute: 'width', value: -1 },
    { op: 'set', stroke: id, attribute: 'transform', value: [NaN, 0, 0, 1, 0, 0] },
    { op: 'set', stroke: id, attribute: 'colour', value: true },
    { op: 'set', stroke: id, attribute: 'shininess', value: 3 },
    { op: 'erase', stroke: 'not-a-stroke', intervals: [[0, 1]] },
  ]);
  const after = boardAfter([drawn, nonsense]);
  assert.deepEqual(pieces(after, id), [[0, 2]]);
  assert.equal(after.stroke(id).width, 2);
  assert.deepEqual(after.stroke(id).transform, [1, 0, 0, 1, 0, 0]);
  assert.equal(after.stroke(id).colour, 0x000000ff);
});

test('unknown operations are ignored but keep their place in the change', () => {
  const alice = testAuthor(1);
  const unknown = { op: 'unknown', kind: 42, bytes: '0a0b' };
  const change = alice.makeChange('main', [unknown, add(line(2))]);
  const copy = structuredClone(change);
  const board = boardAfter([change]);
  assert.deepEqual(ids(board), [strokeOf(change, 1)], 'the add is operation 1, after the unknown one');
  assert.deepEqual(change, copy, 'the change is left as it came, unknown operation included');
});

test('changes with a malformed id or stamp are not applied', () => {
  const alice = testAuthor(1);
  const good = alice.makeChange('main', [add(line(2))]);
  const board = new Board('main');
  for (const bad of [
    { ...good, id: { replica: 'xyz', seq: 1 } },
    { ...good, id: { ...good.id, seq: 0 } },
    { ...good, stamp: { wall: -1, counter: 0 } },
    { ...good, stamp: { wall: 1, counter: 65536 } },
    { ...good, operations: 'none' },
    null,
  ]) {
    assert.equal(board.apply(bad).strokes.size, 0);
  }
  assert.equal(board.changeCount, 0);
  board.apply(good);
  assert.equal(board.visibleStrokeCount, 1);
});

test('stroke ids are read as Swift reads them: any hex case, no leading-zero variants', () => {
  const alice = testAuthor(10);
  const drawn = alice.makeChange('main', [add(line(4))]);
  const shouted = strokeOf(drawn).toUpperCase().replace(/-1-0$/, '-01-0');
  const erase = alice.makeChange('main', [{ op: 'erase', stroke: shouted, intervals: [[0, 1]] }]);
  const board = boardAfter([drawn, erase]);
  assert.deepEqual(pieces(board, strokeOf(drawn)), [[1, 3]]);
  assert.deepEqual(board.stroke(shouted), board.stroke(strokeOf(drawn)));
});

test('deltas name what changed', () => {
  const alice = testAuthor(1);
  const first = alice.makeChange('main', [add(line(3))]);
  const second = alice.makeChange('main', [add(line(3, 4))]);
  const board = boardAfter([first, second]);
  const delta = board.apply(alice.makeChange('main', [{ op: 'erase', stroke: strokeOf(first), intervals: [[0, 1]] }]));
  assert.deepEqual([...delta.strokes], [strokeOf(first)]);
  assert.ok(!delta.everything && !delta.reordered);
  const lift = board.apply(alice.makeChange('main', [{ op: 'set', stroke: strokeOf(first), attribute: 'zOrder', value: 3 }]));
  assert.ok(lift.reordered);
  assert.ok(board.apply(alice.makeChange('main', [{ op: 'clear' }])).everything);
});
