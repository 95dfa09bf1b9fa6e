// Operations cut into several changes (js/model/change-parts.js): the parts together do exactly what the
// one change would have done, over restores of the random session of Conformance/board.json (copies of
// strokes, text boxes and images, erases, restacks), cut at every size.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { boardAt, restoreOperations, timeline } from '../../js/model/board-history.js';
import { splitOperations } from '../../js/model/change-parts.js';
import { strokeId } from '../../js/model/ids.js';
import { boardCases } from './support/vectors.mjs';
import { reproducibly, runSeed, seededRandom } from './support/random.mjs';

const cases = boardCases(new URL('../../../Conformance/board.json', import.meta.url));
const session = cases.find((testCase) => testCase.name === 'random session').changes;
const RESTORER = '0f000000000000000000000000000042';
const FIRST = { replica: RESTORER, seq: 1 };
const always = () => true;

/** What a board shows, ids aside: each stroke's look, bottom to top. */
function appearance(board) {
  return board.strokes().map(({ colour, width, transform, points, pressures, pieces, text, image }) => ({ colour, width, transform, points, pressures, pieces, text, image }));
}

/** The restorer's changes of `parts`, one after another, after every change of `history`. */
function changesOf(history, parts) {
  const last = history[history.length - 1].stamp;
  return parts.map((operations, i) => ({ id: { replica: RESTORER, seq: FIRST.seq + i }, stamp: { wall: last.wall + 1 + i, counter: 0 }, board: 'main', operations }));
}

test('operations that fit in one change are left as they are', () => {
  const operations = [{ op: 'clear' }];
  assert.equal(splitOperations(operations, FIRST, always)[0], operations);
  assert.equal(splitOperations(operations, FIRST, always).length, 1);
});

test('cut at any size, the parts of a restore make the board look as the one change does, and undo whole', () => {
  const history = timeline(session, 'main');
  const current = boardAt(history, history.length, 'main');
  let cutThroughCopies = 0;
  for (let count = 0; count < history.length; count += 5) {
    const past = boardAt(history, count, 'main');
    const operations = restoreOperations(current, past, (i) => strokeId(FIRST, i));
    if (operations.length < 2) continue;
    const whole = boardAt(history, history.length, 'main');
    whole.applyAll(changesOf(history, [operations]));
    for (const most of [1, 2, 3, 7, Math.ceil(operations.length / 2)]) {
      const parts = splitOperations(operations, FIRST, always, most);
      assert.deepEqual(parts.map((part) => part.length), cutSizes(operations.length, most));
      const changes = changesOf(history, parts);
      const cut = boardAt(history, history.length, 'main');
      cut.applyAll(changes);
      cut.checkInvariants();
      assert.deepEqual(appearance(cut), appearance(whole), `restoring to ${count}, ${most} operations a part`);
      assert.deepEqual(appearance(cut), appearance(past));
      if (parts.some((part, i) => i > 0 && part.some((op) => op.stroke?.startsWith(`${RESTORER}-1-`)))) cutThroughCopies += 1;
      // Undone whole (newest first, as the undo history does), the board is as it was before.
      const last = changes[changes.length - 1];
      cut.apply({
        id: { replica: RESTORER, seq: FIRST.seq + parts.length },
        stamp: { wall: last.stamp.wall + 1, counter: 0 },
        board: 'main',
        operations: changes.toReversed().map((change) => ({ op: 'undo', change: change.id })),
      });
      assert.equal(cut.hash(), current.hash(), `undoing the restore to ${count} cut every ${most}`);
    }
  }
  assert.ok(cutThroughCopies > 0, 'some part edits a copy added by an earlier part');
});

test('a part too large in bytes is halved until it fits; one operation that never fits is refused', () => {
  const seed = runSeed();
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    const operations = Array.from({ length: random.int(20, 60) }, (_, i) => ({
      op: 'addStroke',
      colour: 0x000000ff,
      width: 2,
      points: Array.from({ length: random.int(1, 40) }, (_, j) => [i, j]),
    }));
    const budget = 80;
    const points = (part) => part.reduce((sum, op) => sum + (op.points?.length ?? 0), 0);
    const parts = splitOperations(operations, FIRST, (part) => points(part) <= budget, 25);
    assert.ok(parts.every((part) => part.length <= 25 && points(part) <= budget));
    assert.deepEqual(parts.flat(), operations, 'additions name nothing: only the cuts differ');
    assert.throws(() => splitOperations(operations, FIRST, (part) => points(part) <= 10), RangeError);
  });
});

test('a copy edited after the cut is renamed to its id in the part that adds it', () => {
  const operations = [
    { op: 'addText', colour: 0x000000ff, size: 16, at: [0, 0] },
    { op: 'insertText', box: strokeId(FIRST, 0), after: null, text: 'hi' },
    { op: 'insertText', box: strokeId(FIRST, 0), after: { run: strokeId(FIRST, 1), offset: 1 }, text: '!' },
    { op: 'deleteText', box: strokeId(FIRST, 0), ranges: [{ run: strokeId(FIRST, 1), from: 0, to: 1 }] },
    { op: 'set', stroke: strokeId(FIRST, 0), attribute: 'zOrder', value: 3 },
    { op: 'set', stroke: 'ff000000000000000000000000000001-4-0', attribute: 'zOrder', value: 4 },
  ];
  const parts = splitOperations(operations, FIRST, always, 2);
  const second = { replica: RESTORER, seq: 2 };
  assert.deepEqual(parts, [
    operations.slice(0, 2),
    [
      { op: 'insertText', box: strokeId(FIRST, 0), after: { run: strokeId(FIRST, 1), offset: 1 }, text: '!' },
      { op: 'deleteText', box: strokeId(FIRST, 0), ranges: [{ run: strokeId(FIRST, 1), from: 0, to: 1 }] },
    ],
    [operations[4], operations[5]],
  ]);
  // Cut one by one, every reference moves to the part that made it.
  const single = splitOperations(operations, FIRST, always, 1);
  assert.deepEqual(single[2][0].after, { run: strokeId(second, 0), offset: 1 });
  assert.equal(single[2][0].box, strokeId(FIRST, 0));
  assert.deepEqual(single[3][0].ranges, [{ run: strokeId(second, 0), from: 0, to: 1 }]);
  const board = new Board('main');
  board.applyAll(single.map((part, i) => ({ id: { replica: RESTORER, seq: 1 + i }, stamp: { wall: 1 + i, counter: 0 }, board: 'main', operations: part })));
  assert.equal(board.stroke(strokeId(FIRST, 0)).text, 'i!');
});

test('an operation naming one after it in its own change is refused, not renamed wrongly', () => {
  const operations = [
    { op: 'set', stroke: strokeId(FIRST, 1), attribute: 'zOrder', value: 1 },
    { op: 'addStroke', colour: 0x000000ff, width: 2, points: [[0, 0]] },
  ];
  assert.throws(() => splitOperations(operations, FIRST, always, 1), /comes after it/);
});

/** The sizes of the parts of `count` operations cut every `most`. */
function cutSizes(count, most) {
  return Array.from({ length: Math.ceil(count / most) }, (_, i) => Math.min(most, count - i * most));
}
