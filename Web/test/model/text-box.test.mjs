// Text boxes on the board (docs/ARCHITECTURE.md, "Text boxes on the board"): a box is an element like a
// stroke whose text is a TextSequence; what shows is the active inserts less the active deletes, in any
// delivery order. Seeded: INKWELL_SEED reruns.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { boardAt, restoreOperations, timeline } from '../../js/model/board-history.js';
import { scalarCaret, utf16Caret } from '../../js/model/board-text.js';
import { CanonicalEncoder } from '../../js/model/canonical-encoder.js';
import { changeKey, replicaBytes, strokeId } from '../../js/model/ids.js';
import { copyOperations } from '../../js/model/selection-edits.js';
import { add, line, strokeOf, testAuthor } from './support/authors.mjs';
import { boardAfter } from './support/boards.mjs';
import { reproducibly, runSeed, seededRandom } from './support/random.mjs';
import { ReplicaSession } from './support/replica-session.mjs';
import { hex } from './support/vectors.mjs';

const addText = (at = [10, 20], { colour = 0x112233ff, size = 16 } = {}) => ({ op: 'addText', colour, size, at });
const insert = (box, after, text) => ({ op: 'insertText', box, after, text });
const undo = (change) => ({ op: 'undo', change: change.id });
const redo = (change) => ({ op: 'redo', change: change.id });
const settle = (through, inactive = []) => ({ op: 'settle', through, inactive });
const cut = (...entries) => new Map(entries.map(([author, seq]) => [author.replica, seq]));

/** `author`'s change typing `text` into `box` at `caret` of what `board` shows, applied to `board`. */
function type(author, board, box, caret, text) {
  const change = author.makeChange('main', [board.insertTextOperation(box, caret, text)]);
  board.apply(change);
  return change;
}

test('a box is an element like a stroke, with its text, its font size as its width and its corner as its point', () => {
  const alice = testAuthor(1);
  const board = new Board('main');
  const added = alice.makeChange('main', [add(line(3)), addText([10, 20])]);
  board.apply(added);
  const box = strokeOf(added, 1);
  assert.deepEqual(board.stroke(box), {
    id: box,
    colour: 0x112233ff,
    width: 16,
    z: 0,
    transform: [1, 0, 0, 1, 0, 0],
    points: [[10, 20]],
    pressures: null,
    pieces: [[0, 0]],
    text: '',
  });
  assert.ok(!('text' in board.stroke(strokeOf(added))), 'an ink stroke has no text key');
  type(alice, board, box, 0, 'Hllo');
  type(alice, board, box, 1, 'e');
  assert.equal(board.stroke(box).text, 'Hello');
  assert.equal(board.text(box), 'Hello');
  assert.equal(board.text(strokeOf(added)), null, 'a stroke has no text');
  board.apply(alice.makeChange('main', [{ op: 'set', stroke: box, attribute: 'width', value: 30 }]));
  board.apply(alice.makeChange('main', [{ op: 'set', stroke: box, attribute: 'zOrder', value: -1 }]));
  assert.equal(board.stroke(box).width, 30);
  assert.deepEqual(board.strokes().map((stroke) => stroke.id), [box, strokeOf(added)]);
  const deleted = alice.makeChange('main', [{ op: 'set', stroke: box, attribute: 'deleted', value: true }]);
  board.apply(deleted);
  assert.equal(board.stroke(box), null);
  assert.equal(board.text(box), 'Hello', 'the text of a hidden box still reads');
  board.apply(alice.makeChange('main', [undo(deleted)]));
  assert.equal(board.stroke(box).text, 'Hello');
  board.apply(alice.makeChange('main', [{ op: 'clear' }]));
  assert.equal(board.stroke(box), null);
  board.checkInvariants();
});

test('two people typing at one caret at once both keep what they typed, in either order', () => {
  const [alice, bob] = [testAuthor(1), testAuthor(2)];
  const base = new Board('main');
  const added = alice.makeChange('main', [addText()]);
  base.apply(added);
  const box = strokeOf(added);
  const start = type(alice, base, box, 0, 'ac');
  bob.witness(start.stamp);
  // Both see "ac" and type after the "a".
  const after = base.textAnchorAt(box, 1);
  const fromAlice = alice.makeChange('main', [insert(box, after, 'b')]);
  const fromBob = bob.makeChange('main', [insert(box, after, 'x')]);
  const one = boardAfter([added, start, fromAlice, fromBob]);
  const other = boardAfter([fromBob, start, fromAlice, added]);
  assert.equal(one.text(box).length, 4);
  assert.ok(['abxc', 'axbc'].includes(one.text(box)), one.text(box));
  assert.equal(other.text(box), one.text(box));
  assert.equal(other.hash(), one.hash());
});

test('undo takes typing away and redo brings it back; undone text still anchors what others typed after it', () => {
  const [alice, bob] = [testAuthor(1), testAuthor(2)];
  const board = new Board('main');
  const added = alice.makeChange('main', [addText()]);
  board.apply(added);
  const box = strokeOf(added);
  type(alice, board, box, 0, 'abc');
  const typed = type(alice, board, box, 3, 'def');
  bob.witness(typed.stamp);
  const bobs = type(bob, board, box, 5, 'X');
  assert.equal(board.text(box), 'abcdeXf');
  const undone = alice.makeChange('main', [undo(typed)]);
  const delta = board.apply(undone);
  assert.ok(delta.strokes.has(box), 'the delta names the box');
  assert.equal(board.text(box), 'abcX');
  board.apply(alice.makeChange('main', [redo(typed)]));
  assert.equal(board.text(box), 'abcdeXf');
  // Undoing a deletion brings the characters back.
  const deletion = alice.makeChange('main', board.deleteTextOperations(box, 1, 6));
  board.apply(deletion);
  assert.equal(board.text(box), 'af');
  board.apply(alice.makeChange('main', [undo(deletion)]));
  assert.equal(board.text(box), 'abcdeXf');
  // An undo of another's change is ignored.
  board.apply(alice.makeChange('main', [undo(bobs)]));
  assert.equal(board.text(box), 'abcdeXf');
  board.checkInvariants();
});

test('text typed before its box arrives waits for it', () => {
  const alice = testAuthor(1);
  const model = new Board('main');
  const added = alice.makeChange('main', [addText()]);
  model.apply(added);
  const box = strokeOf(added);
  const typing = [type(alice, model, box, 0, 'held'), type(alice, model, box, 4, ' on')];
  const board = boardAfter(typing);
  assert.equal(board.stroke(box), null);
  assert.equal(board.text(box), null);
  const delta = board.apply(added);
  assert.ok(delta.strokes.has(box));
  assert.equal(board.stroke(box).text, 'held on');
  assert.equal(board.hash(), model.hash());
});

test('deleteText hides ranges of runs; one bad range and the whole operation is ignored', () => {
  const alice = testAuthor(1);
  const board = new Board('main');
  const added = alice.makeChange('main', [addText()]);
  board.apply(added);
  const box = strokeOf(added);
  const first = strokeOf(type(alice, board, box, 0, 'hello'));
  const second = strokeOf(type(alice, board, box, 5, ' world'));
  assert.deepEqual(board.deleteTextOperations(box, 3, 8), [
    {
      op: 'deleteText',
      box,
      ranges: [
        { run: first, from: 3, to: 5 },
        { run: second, from: 0, to: 3 },
      ],
    },
  ]);
  assert.deepEqual(board.deleteTextOperations(box, 2, 2), []);
  const bad = { op: 'deleteText', box, ranges: [{ run: first, from: 0, to: 1 }, { run: second, from: 2, to: 2 }] };
  board.apply(alice.makeChange('main', [bad]));
  assert.equal(board.text(box), 'hello world');
  const ranges = [
    { run: first, from: 0, to: 1 },
    { run: second, from: 1, to: 3 },
    { run: first, from: 4, to: 9 },
  ];
  board.apply(alice.makeChange('main', [{ op: 'deleteText', box, ranges }]));
  assert.equal(board.text(box), 'ell rld');
  // Deleting again, or past the end of a run, hides nothing more.
  board.apply(alice.makeChange('main', [{ op: 'deleteText', box, ranges: [{ run: first, from: 0, to: 2 }] }]));
  assert.equal(board.text(box), 'll rld');
  board.checkInvariants();
});

test('text operations aimed at a stroke, and erases and appends aimed at a box, do nothing', () => {
  const alice = testAuthor(1);
  const added = alice.makeChange('main', [add(line(4)), addText()]);
  const stroke = strokeOf(added);
  const box = strokeOf(added, 1);
  const typed = alice.makeChange('main', [insert(box, null, 'hi')]);
  const run = strokeOf(typed);
  const plain = boardAfter([added, typed]);
  const aimed = [
    insert(stroke, null, 'no'),
    { op: 'deleteText', box: stroke, ranges: [{ run, from: 0, to: 1 }] },
    { op: 'erase', stroke: box, intervals: [[-1, 1]] },
    { op: 'appendPoints', stroke: box, points: [[50, 50]], pressures: null },
  ];
  const board = boardAfter([added, typed, ...aimed.map((op) => alice.makeChange('main', [op]))]);
  assert.deepEqual(board.strokes(), plain.strokes());
  assert.equal(board.hash(), plain.hash());
  assert.equal(board.text(box), 'hi');
  assert.deepEqual(board.points(box), [[10, 20]]);
});

test('malformed text operations are ignored', () => {
  const alice = testAuthor(1);
  const added = alice.makeChange('main', [addText()]);
  const box = strokeOf(added);
  const plain = boardAfter([added]);
  const run = `${alice.replica}-1-0`;
  const malformed = [
    addText([NaN, 0]),
    addText([0, 2e9]),
    addText([0]),
    addText([0, 0], { size: 0 }),
    addText([0, 0], { size: 1001 }),
    addText([0, 0], { colour: -1 }),
    addText([0, 0], { colour: 2 ** 32 }),
    insert(box, null, ''),
    insert(box, null, 'x'.repeat(100_001)),
    insert(box, null, '\ud800'),
    insert(box, null, 5),
    insert('not an id', null, 'x'),
    insert(box, { run: 'nope', offset: 0 }, 'x'),
    insert(box, { run, offset: -1 }, 'x'),
    insert(box, { run, offset: 2 ** 32 }, 'x'),
    insert(box, { run, offset: 0.5 }, 'x'),
    { op: 'deleteText', box, ranges: [] },
    { op: 'deleteText', box, ranges: Array.from({ length: 10_001 }, () => ({ run, from: 0, to: 1 })) },
    { op: 'deleteText', box, ranges: [{ run, from: 1, to: 1 }] },
    { op: 'deleteText', box, ranges: [{ run, from: 0, to: 2 ** 32 }] },
    { op: 'deleteText', box, ranges: [{ run: 'nope', from: 0, to: 1 }] },
    { op: 'deleteText', box: 'nope', ranges: [{ run, from: 0, to: 1 }] },
  ];
  const board = boardAfter([added, ...malformed.map((op) => alice.makeChange('main', [op]))]);
  assert.equal(board.hash(), plain.hash());
  assert.deepEqual(board.strokes(), plain.strokes());
  // The longest text allowed is taken.
  board.apply(alice.makeChange('main', [insert(box, null, '🙂'.repeat(100_000))]));
  assert.equal(board.text(box).length, 200_000);
});

test('a box is written canonically as a stroke whose pressures flag is 2, then its text', () => {
  const alice = testAuthor(7);
  const added = alice.makeChange('main', [addText([1.5, -2], { colour: 0xff0000ff, size: 24 })]);
  const box = strokeOf(added);
  const typed = alice.makeChange('main', [insert(box, null, 'é🙂\n')]);
  const board = boardAfter([added, typed]);
  const expected = new CanonicalEncoder();
  expected.writeVarint(1);
  expected.writeRaw(replicaBytes(alice.replica));
  expected.writeVarint(1);
  expected.writeVarint(0);
  expected.writeVarint(0xff0000ff);
  for (const number of [24, 0, 1, 0, 0, 1, 0, 0]) expected.writeDouble(number);
  expected.writeVarint(1);
  expected.writeDouble(1.5);
  expected.writeDouble(-2);
  expected.writeVarint(2);
  expected.writeVarint(7);
  expected.writeRaw(new TextEncoder().encode('é🙂\n'));
  expected.writeVarint(1);
  expected.writeDouble(0);
  expected.writeDouble(0);
  assert.equal(hex(board.canonicalEncoding()), hex(expected.bytes));
  assert.ok(hex(board.canonicalEncoding()).includes('0207c3a9f09f99820a01'), 'flag 2, 7 bytes of text, one piece');
  const empty = boardAfter([added]);
  assert.ok(hex(empty.canonicalEncoding()).endsWith('020001' + '00'.repeat(16)), 'an empty box: flag 2, no bytes');
});

test('the page reads a box’s characters and carets, and turns a caret into operations', () => {
  const alice = testAuthor(1);
  const board = new Board('main');
  const added = alice.makeChange('main', [addText()]);
  board.apply(added);
  const box = strokeOf(added);
  assert.deepEqual(board.visibleCharacters(box), []);
  assert.equal(board.textAnchorAt(box, 0), null);
  assert.throws(() => board.textAnchorAt(box, 1), RangeError);
  assert.throws(() => board.textAnchorAt(`${alice.replica}-9-0`, 0), RangeError, 'not a box');
  assert.throws(() => board.insertTextOperation(box, 0, ''), RangeError);
  const run = strokeOf(type(alice, board, box, 0, 'a🙂c'));
  assert.deepEqual(board.visibleCharacters(box), [
    { run, offset: 0, char: 'a' },
    { run, offset: 1, char: '🙂' },
    { run, offset: 2, char: 'c' },
  ]);
  assert.deepEqual(board.textAnchorAt(box, 2), { run, offset: 1 });
  assert.deepEqual(board.insertTextOperation(box.toUpperCase(), 3, '!'), {
    op: 'insertText',
    box,
    after: { run, offset: 2 },
    text: '!',
  });
  // A text field counts UTF-16 units: the emoji is two of them.
  assert.equal(scalarCaret('a🙂c', 3), 2);
  assert.equal(scalarCaret('a🙂c', 2), 2, 'inside the pair counts as after it');
  assert.equal(utf16Caret('a🙂c', 2), 3);
  assert.equal(utf16Caret('a🙂c', 9), 4);
  const caret = scalarCaret(board.text(box), 1);
  type(alice, board, box, caret, 'b');
  assert.equal(board.text(box), 'ab🙂c');
});

test('a copy of a box is an addText and its text as one run; a restore deletes text typed since', () => {
  const alice = testAuthor(1);
  const restorer = { replica: testAuthor(9).replica, seq: 1 };
  const copy = (i) => strokeId(restorer, i);
  const board = new Board('main');
  const added = alice.makeChange('main', [addText([8, 16], { size: 20 })]);
  board.apply(added);
  const box = strokeOf(added);
  const history = [added, type(alice, board, box, 0, 'ab')];
  assert.deepEqual(copyOperations([board.stroke(box)], [8, 0], copy), [
    { op: 'addText', colour: 0x112233ff, size: 20, at: [8, 16] },
    { op: 'insertText', box: copy(0), after: null, text: 'ab' },
    { op: 'set', stroke: copy(0), attribute: 'transform', value: [1, 0, 0, 1, 8, 0] },
  ]);
  history.push(type(alice, board, box, 1, 'X'), type(alice, board, box, 3, 'YZ'));
  assert.equal(board.text(box), 'aXbYZ');
  const then = boardAt(timeline(history, 'main'), 2, 'main');
  const operations = restoreOperations(board, then, copy);
  assert.deepEqual(operations.map((operation) => operation.op), ['deleteText']);
  assert.equal(operations[0].ranges.length, 3, 'one range a character typed since');
  const stamp = { wall: history[history.length - 1].stamp.wall + 1, counter: 0 };
  board.apply({ id: restorer, stamp, board: 'main', operations });
  assert.equal(board.text(box), 'ab');
  // Once a character shown then is gone, the box comes back as a copy.
  board.apply(alice.makeChange('main', board.deleteTextOperations(box, 0, 1)));
  const lost = restoreOperations(board, then, copy);
  assert.deepEqual(lost.map((operation) => operation.op), ['addText', 'insertText', 'set', 'set']);
  assert.deepEqual(lost[1], { op: 'insertText', box: copy(0), after: null, text: 'ab' });
});

test(`boxes typed in by several people converge in any delivery order, with duplicates`, (t) => {
  const seed = runSeed();
  t.diagnostic(`seed ${seed} (INKWELL_SEED=${seed} replays it)`);
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    let typed = 0;
    for (let round = 0; round < 4; round++) {
      const session = new ReplicaSession(random, 3, { text: true });
      session.run(300);
      const model = boardAfter(session.changes);
      const boxes = [...new Set(session.replicas.flatMap((replica) => replica.boxes))];
      typed += boxes.reduce((sum, box) => sum + (model.text(box)?.length ?? 0), 0);
      for (let order = 0; order < 4; order++) {
        const extra = Array.from({ length: 40 }, () => random.pick(session.changes));
        const board = boardAfter(random.shuffled([...session.changes, ...extra]));
        assert.equal(board.hash(), model.hash(), `round ${round}, order ${order}`);
        assert.deepEqual(board.strokes(), model.strokes(), `round ${round}, order ${order}`);
        for (const box of boxes) assert.deepEqual(board.visibleCharacters(box), model.visibleCharacters(box));
      }
      // Each replica, once it hears everything, shows the same.
      for (const replica of session.replicas) {
        for (const change of session.changes) replica.view.apply(change);
        assert.equal(replica.view.hash(), model.hash(), `round ${round}: a replica's view`);
      }
    }
    t.diagnostic(`${typed} characters in the boxes at the ends of the sessions`);
    assert.ok(typed > 0, 'the sessions typed something');
  });
});

test('a dead box goes with its text; an insert undone for good stays, a delete undone for good goes', () => {
  const [alice, bob] = [testAuthor(1), testAuthor(2)];
  const added = alice.makeChange('main', [addText()]);
  const box = strokeOf(added);
  const typed = alice.makeChange('main', [insert(box, null, 'abc')]);
  const run = strokeOf(typed);
  const erased = alice.makeChange('main', [{ op: 'deleteText', box, ranges: [{ run, from: 0, to: 1 }] }]);
  const undone = alice.makeChange('main', [undo(typed), undo(erased)]);
  const settled = alice.makeChange('main', [settle(4, [2, 3])]);
  const bobs = bob.makeChange('main', [insert(box, { run, offset: 2 }, 'X')]);
  const all = [added, typed, erased, undone, settled, bobs];
  const board = boardAfter(all);
  assert.equal(board.text(box), 'X');
  const inert = new Set(board.inertChanges(all, cut([alice, 5], [bob, 1])).map(changeKey));
  assert.deepEqual(inert, new Set([changeKey(erased.id), changeKey(undone.id)]));
  assert.equal(boardAfter(all.filter((change) => !inert.has(changeKey(change.id)))).hash(), board.hash());

  // Deleted for good: the add, the typing and the deletes go; the deletion stays as the proof.
  const deleted = alice.makeChange('main', [{ op: 'set', stroke: box, attribute: 'deleted', value: true }]);
  const closed = alice.makeChange('main', [settle(6, [2, 3])]);
  const later = [...all, deleted, closed];
  const after = boardAfter(later);
  const gone = new Set(after.inertChanges(later, cut([alice, 7], [bob, 1])).map(changeKey));
  const expected = [added, typed, erased, undone, bobs].map((change) => changeKey(change.id));
  assert.deepEqual(gone, new Set(expected));
  assert.equal(boardAfter(later.filter((change) => !gone.has(changeKey(change.id)))).hash(), after.hash());
});

test('text aimed at ink, or at a change of the cut that added no box, is inert; at a box still to come, not', () => {
  const [alice, bob] = [testAuthor(1), testAuthor(2)];
  const ink = alice.makeChange('main', [add(line(3))]);
  const cleared = alice.makeChange('main', [{ op: 'clear' }]);
  const stroke = strokeOf(ink);
  const nothing = strokeOf(cleared);
  const coming = `${alice.replica}-9-0`;
  const aimed = [stroke, nothing, coming].map((box) => [
    bob.makeChange('main', [insert(box, null, 'x')]),
    bob.makeChange('main', [{ op: 'deleteText', box, ranges: [{ run: box, from: 0, to: 1 }] }]),
  ]);
  const all = [ink, cleared, ...aimed.flat()];
  const inert = new Set(boardAfter(all).inertChanges(all, cut([alice, 2], [bob, 6])).map(changeKey));
  const expected = [...aimed[0], ...aimed[1]].map((change) => changeKey(change.id));
  assert.deepEqual(inert, new Set(expected));
});

test('dropping the inert changes of sessions with text boxes keeps the drawing, then and later (seeded)', (t) => {
  const seed = runSeed();
  t.diagnostic(`seed ${seed} (INKWELL_SEED=${seed} replays it)`);
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    let dropped = 0;
    for (let round = 0; round < 6; round++) {
      const session = new ReplicaSession(random, 3, { text: true });
      session.run(300);
      const history = [...session.changes];
      const full = boardAfter(history);
      const first = session.randomCut();
      const inert = new Set(full.inertChanges(history, first).map(changeKey));
      const kept = history.filter((change) => !inert.has(changeKey(change.id)));
      assert.equal(boardAfter(kept).hash(), full.hash(), `round ${round}: dropping ${inert.size} changed the drawing`);
      session.run(150);
      const later = session.changes.slice(history.length);
      const compacted = boardAfter([...kept, ...later]);
      const fullLater = boardAfter(session.changes);
      assert.equal(compacted.hash(), fullLater.hash(), `round ${round}: a later change showed what was dropped`);
      const laterInert = new Set(fullLater.inertChanges(session.changes, session.randomCut(first)).map(changeKey));
      for (const key of inert) assert.ok(laterInert.has(key), `round ${round}: ${key} mattered again in a later cut`);
      dropped += inert.size;
    }
    t.diagnostic(`dropped ${dropped}`);
  });
});
