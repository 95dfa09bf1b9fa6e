// Highlighters and fills (js/model/board-brush.js): a highlighter's strokes stack beneath every other
// element whatever their z-orders; a fill is a last-writer-wins attribute that only ink shows, alpha 0
// meaning none. What makes either malformed, how they are written canonically, filled, copied, restored and
// dropped when they stop mattering.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boardAt, restoreOperations, timeline } from '../../js/model/board-history.js';
import { BRUSHES, layerOf, readBrush, showsFill } from '../../js/model/board-brush.js';
import { CanonicalEncoder } from '../../js/model/canonical-encoder.js';
import { changeKey, replicaBytes, strokeId } from '../../js/model/ids.js';
import { ATTRIBUTES, readOperation } from '../../js/model/operation.js';
import { copyOperations, fillOperations } from '../../js/model/selection-edits.js';
import { add, line, strokeOf, testAuthor } from './support/authors.mjs';
import { boardAfter } from './support/boards.mjs';
import { hex } from './support/vectors.mjs';

const BLUE = 0x0078ff40;
const YELLOW = 0xfadc0060;
const set = (stroke, attribute, value) => ({ op: 'set', stroke, attribute, value });
const undo = (change) => ({ op: 'undo', change: change.id });
/** A highlighter's addStroke, in yellow, 18 wide, unless told otherwise. */
const highlight = (points, options = {}) =>
  add(points, { colour: YELLOW, width: 18, ...options, brush: 'highlighter' });
const ids = (board) => board.strokes().map((stroke) => stroke.id);
const cut = (...entries) => new Map(entries.map(([author, seq]) => [author.replica, seq]));

test('brushes at their wire numbers, their layers, and which fills show', () => {
  assert.deepEqual(BRUSHES, ['pen', 'highlighter']);
  assert.equal(ATTRIBUTES.indexOf('fill') + 1, 6, 'Swift’s Attribute.fill is 6');
  assert.deepEqual([readBrush(undefined), readBrush('pen'), readBrush('highlighter')], ['pen', 'pen', 'highlighter']);
  for (const other of [null, 'marker', 'Highlighter', 0, 1, '']) assert.equal(readBrush(other), null, String(other));
  assert.deepEqual([layerOf('highlighter'), layerOf('pen')], [0, 1]);
  assert.deepEqual([0, 0xffffff00, 1, BLUE, 0xffffffff].map(showsFill), [false, false, true, true, true]);
});

test('an addStroke names no brush, a pen or a highlighter; any other makes it unreadable', () => {
  assert.equal(readOperation(add(line(2))).brush, 'pen');
  assert.equal(readOperation(add(line(2), { brush: 'pen' })).brush, 'pen');
  assert.equal(readOperation(highlight(line(2))).brush, 'highlighter');
  for (const brush of ['marker', null, 1, 'PEN']) {
    assert.equal(readOperation({ ...add(line(2)), brush }), null, String(brush));
  }
  const stroke = `${testAuthor(1).replica}-1-0`;
  for (const value of [0, 1, BLUE, 0xffffffff]) assert.equal(readOperation(set(stroke, 'fill', value))?.value, value);
  for (const value of [-1, 2 ** 32, 0.5, '255', null, true]) {
    assert.equal(readOperation(set(stroke, 'fill', value)), null, String(value));
  }
  // A stroke of an unknown brush is not there at all, but its index is taken.
  const alice = testAuthor(1);
  const change = alice.makeChange('main', [{ ...add(line(2)), brush: 'marker' }, add(line(2))]);
  assert.deepEqual(ids(boardAfter([change])), [strokeOf(change, 1)]);
});

test('highlighters lie beneath ink, text and images whatever their z-orders, and stack by z among themselves', () => {
  const alice = testAuthor(1);
  const pen = alice.makeChange('main', [add(line(3))]);
  const marks = alice.makeChange('main', [highlight(line(3, 2)), highlight(line(2, 4))]);
  const box = alice.makeChange('main', [{ op: 'addText', colour: 0x000000ff, size: 12, at: [0, 9] }]);
  const [first, second] = [strokeOf(marks, 0), strokeOf(marks, 1)];
  const board = boardAfter([pen, marks, box]);
  assert.deepEqual(ids(board), [first, second, strokeOf(pen), strokeOf(box)]);
  const delta = board.apply(alice.makeChange('main', [set(first, 'zOrder', 9), set(strokeOf(pen), 'zOrder', -9)]));
  assert.ok(delta.reordered);
  assert.deepEqual(ids(board), [second, first, strokeOf(pen), strokeOf(box)]);
  assert.equal(board.stroke(first).brush, 'highlighter');
  assert.ok(!('brush' in board.stroke(strokeOf(pen))) && !('brush' in board.stroke(strokeOf(box))), 'pens say nothing');
  // The same whichever order the changes arrive in.
  const changes = [pen, marks, box];
  assert.equal(boardAfter([...changes].reverse()).hash(), boardAfter(changes).hash());
});

test('a fill shows on ink when its alpha is above 0, follows undo, and is named in the delta', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(4)), highlight(line(3, 5))]);
  const [ink, mark] = [strokeOf(drawn, 0), strokeOf(drawn, 1)];
  const board = boardAfter([drawn]);
  assert.ok(!('fill' in board.stroke(ink)), 'no fill, no key');
  const filled = alice.makeChange('main', [set(ink, 'fill', BLUE), set(mark, 'fill', 0xff000080)]);
  assert.deepEqual([...board.apply(filled).strokes].sort(), [ink, mark].sort());
  assert.deepEqual([board.stroke(ink).fill, board.stroke(mark).fill], [BLUE, 0xff000080], 'a highlighter fills too');
  const cleared = alice.makeChange('main', [set(ink, 'fill', 0x12345600)]);
  assert.ok(board.apply(cleared).strokes.has(ink));
  assert.ok(!('fill' in board.stroke(ink)), 'alpha 0 is no fill, whatever its colour');
  board.apply(alice.makeChange('main', [undo(cleared)]));
  assert.equal(board.stroke(ink).fill, BLUE, 'undoing the clear brings the fill back');
  board.checkInvariants();
});

test('text boxes and images take no fill, though the write is kept', () => {
  const alice = testAuthor(1);
  const blob = 'ab'.repeat(32);
  const placed = alice.makeChange('main', [
    { op: 'addText', colour: 0x000000ff, size: 12, at: [0, 0] },
    { op: 'addImage', blob, bytes: 10, type: 'image/png', at: [5, 5], width: 40, height: 30 },
  ]);
  const [box, image] = [strokeOf(placed, 0), strokeOf(placed, 1)];
  const filled = alice.makeChange('main', [set(box, 'fill', BLUE), set(image, 'fill', BLUE)]);
  const board = boardAfter([filled, placed]);
  assert.equal(board.hash(), boardAfter([placed]).hash());
  assert.ok(board.strokes().every((stroke) => !('fill' in stroke)));
});

test('a highlighter’s stroke or a filled one writes its form 8 higher, then its brush and fill', () => {
  const alice = testAuthor(7);
  const drawn = alice.makeChange('main', [
    highlight([[1, 2]], { colour: 5, width: 3 }),
    add([[1, 2]], { colour: 5, width: 3, pressures: [0.5] }),
  ]);
  const filled = alice.makeChange('main', [set(strokeOf(drawn, 1), 'fill', BLUE)]);
  const board = boardAfter([drawn, filled]);
  const expected = new CanonicalEncoder();
  expected.writeVarint(2);
  const head = (index) => {
    expected.writeRaw(replicaBytes(alice.replica));
    expected.writeVarint(1);
    expected.writeVarint(index);
    expected.writeVarint(5);
    for (const number of [3, 0, 1, 0, 0, 1, 0, 0]) expected.writeDouble(number);
    expected.writeVarint(1);
    expected.writeDouble(1);
    expected.writeDouble(2);
  };
  const dot = () => {
    expected.writeVarint(1);
    expected.writeDouble(0);
    expected.writeDouble(0);
  };
  // The highlighter, first: form 0 + 8, brush 1, no fill.
  head(0);
  expected.writeVarint(8);
  expected.writeVarint(1);
  expected.writeVarint(0);
  dot();
  // The pen with pressures and a fill: form 1 + 8, its pressure, brush 0, then 1 and the fill.
  head(1);
  expected.writeVarint(9);
  expected.writeDouble(0.5);
  expected.writeVarint(0);
  expected.writeVarint(1);
  expected.writeVarint(BLUE);
  dot();
  assert.equal(hex(board.canonicalEncoding()), hex(expected.bytes));
  // A pen without a fill is written as before brushes: the same bytes as a board that never heard of fills.
  const plain = boardAfter([testAuthor(7).makeChange('main', [add([[1, 2]], { brush: 'pen' })])]);
  const unnamed = boardAfter([testAuthor(7).makeChange('main', [add([[1, 2]])])]);
  assert.equal(hex(plain.canonicalEncoding()), hex(unnamed.canonicalEncoding()));
  assert.ok(hex(plain.canonicalEncoding()).includes('4000000000000000' + '00' + '01'), 'form 0, then one piece');
});

test('filling a selection fills ink not already so; alpha 0 clears only what is filled', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [
    add(line(3)),
    highlight(line(3, 9)),
    { op: 'addText', colour: 0x000000ff, size: 12, at: [0, 0] },
    add(line(2, 20)),
  ]);
  const [ink, mark, box, other] = [0, 1, 2, 3].map((index) => strokeOf(drawn, index));
  const board = boardAfter([drawn, alice.makeChange('main', [set(other, 'fill', BLUE)])]);
  const selection = board.strokes().reverse();
  assert.deepEqual(fillOperations(selection, BLUE), [set(ink, 'fill', BLUE), set(mark, 'fill', BLUE)]);
  assert.deepEqual(fillOperations(selection, 0), [set(other, 'fill', 0)]);
  assert.deepEqual(fillOperations(selection, 0x12345600), [set(other, 'fill', 0x12345600)], 'any colour of alpha 0');
  assert.deepEqual(fillOperations([board.stroke(box)], BLUE), [], 'text takes no fill');
  for (const wrong of [-1, 2 ** 32, 0.5, '1']) assert.deepEqual(fillOperations(selection, wrong), [], String(wrong));
});

test('a copy keeps its brush and its fill', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [highlight(line(3)), add(line(2, 9))]);
  const [mark, ink] = [strokeOf(drawn, 0), strokeOf(drawn, 1)];
  const board = boardAfter([drawn, alice.makeChange('main', [set(mark, 'fill', BLUE)])]);
  const copy = (index) => strokeId({ replica: alice.replica, seq: 3 }, index);
  const operations = copyOperations([board.stroke(mark), board.stroke(ink)], [0, 0], copy);
  assert.deepEqual(operations, [highlight(line(3)), add(line(2, 9)), set(copy(0), 'fill', BLUE)]);
  assert.ok(!('brush' in operations[1]), 'a pen’s copy names no brush');
  board.apply(alice.makeChange('main', operations));
  const look = ({ brush, fill, points }) => ({ brush, fill, points });
  assert.deepEqual(look(board.stroke(copy(0))), look(board.stroke(mark)));
  assert.deepEqual(look(board.stroke(copy(1))), look(board.stroke(ink)));
});

test('restoring gives a kept stroke back its past fill, or clears one set since', () => {
  const [alice, bob] = [testAuthor(1), testAuthor(2)];
  const drawn = alice.makeChange('main', [add(line(3)), add(line(3, 9))]);
  const [first, second] = [strokeOf(drawn, 0), strokeOf(drawn, 1)];
  const before = alice.makeChange('main', [set(first, 'fill', BLUE)]);
  bob.witness(before.stamp);
  const since = bob.makeChange('main', [set(first, 'fill', 0), set(second, 'fill', YELLOW)]);
  const history = timeline([drawn, before, since], 'main');
  const [now, then] = [boardAt(history, 3, 'main'), boardAt(history, 2, 'main')];
  const restorer = { replica: testAuthor(3).replica, seq: 1 };
  const operations = restoreOperations(now, then, (index) => strokeId(restorer, index));
  assert.deepEqual(operations, [set(first, 'fill', BLUE), set(second, 'fill', 0)]);
  now.apply({ id: restorer, stamp: { wall: since.stamp.wall + 1, counter: 0 }, board: 'main', operations });
  assert.deepEqual(now.strokes(), then.strokes());
});

test('a fill overwritten by a fixed later fill stops mattering; the latest stays', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const ink = strokeOf(drawn);
  const first = alice.makeChange('main', [set(ink, 'fill', BLUE)]);
  const second = alice.makeChange('main', [set(ink, 'fill', YELLOW)]);
  const settled = alice.makeChange('main', [{ op: 'settle', through: 3, inactive: [] }]);
  const all = [drawn, first, second, settled];
  const board = boardAfter(all);
  const inert = board.inertChanges(all, cut([alice, 4])).map(changeKey);
  assert.deepEqual(inert, [changeKey(first.id)]);
  assert.equal(boardAfter(all.filter((change) => !inert.includes(changeKey(change.id)))).hash(), board.hash());
});
