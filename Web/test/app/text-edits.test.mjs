// What typing in a text box's editor commits, and where its caret goes when others type
// (js/app/text-edits.js), against the board model.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { strokeId } from '../../js/model/ids.js';
import { deleteOperations, editOperations, mapCaret, textDiff } from '../../js/app/text-edits.js';
import { FakeSession, testAuthor } from './support.mjs';

const anchors = (board, box) => board.visibleCharacters(box).map(({ run, offset }) => ({ run, offset }));

/** A page's editor over a session: types by setting the field's value, as the textarea's input does. */
class Field {
  constructor(session, box = null) {
    this.session = session;
    this.box = box;
    this.value = box === null ? '' : session.board.text(box);
    this.shown = box === null ? [] : anchors(session.board, box);
  }

  /** The field now shows `value`, its caret at `caret` (UTF-16, the end if not given): commits it. */
  type(value, caret = value.length) {
    const next = this.session.nextChange;
    const creating = this.box === null;
    const box = creating ? strokeId(next, 0) : this.box;
    const edit = editOperations({ box, shown: this.shown, before: this.value, after: value, caret, runId: (i) => strokeId(next, i), firstIndex: creating ? 1 : 0 });
    const operations = creating ? [{ op: 'addText', colour: 0x000000ff, size: 20, at: [0, 0] }, ...edit.operations] : edit.operations;
    const change = this.session.commit(operations);
    this.box = box;
    this.value = value;
    this.shown = edit.shown;
    return change;
  }
}

test('the stretch that changed, from both ends', () => {
  assert.deepEqual(textDiff('Hello', 'Hello!'), { start: 5, end: 5, text: '!' });
  assert.deepEqual(textDiff('Hello', 'Hell'), { start: 4, end: 5, text: '' });
  assert.deepEqual(textDiff('Hello', 'Jello'), { start: 0, end: 1, text: 'J' });
  assert.deepEqual(textDiff('Hello world', 'Hello there', 11), { start: 6, end: 11, text: 'there' });
  assert.deepEqual(textDiff('same', 'same'), { start: 0, end: 0, text: '' });
  assert.deepEqual(textDiff('', 'pasted\ntext'), { start: 0, end: 0, text: 'pasted\ntext' });
});

test('where letters repeat, the change ends at the caret', () => {
  // An "a" typed at the start of "aa", or after the first.
  assert.deepEqual(textDiff('aa', 'aaa', 1), { start: 0, end: 0, text: 'a' });
  assert.deepEqual(textDiff('aa', 'aaa', 2), { start: 1, end: 1, text: 'a' });
  assert.deepEqual(textDiff('aa', 'aaa'), { start: 0, end: 0, text: 'a' }, 'without a caret, as early as can be');
  // Backspace on the first "a" of "aab" leaves the caret at 0.
  assert.deepEqual(textDiff('aab', 'ab', 0), { start: 0, end: 1, text: '' });
  assert.deepEqual(textDiff('aab', 'ab', 1), { start: 1, end: 2, text: '' });
});

test('a surrogate pair is never split', () => {
  // 😀 is \ud83d\ude00 and 😃 \ud83d\ude03: they share their first half.
  assert.deepEqual(textDiff('a😀b', 'a😃b', 3), { start: 1, end: 3, text: '😃' });
  assert.deepEqual(textDiff('😀😀', '😀😀😀', 2), { start: 0, end: 0, text: '😀' });
  assert.deepEqual(textDiff('x😀', 'x', 1), { start: 1, end: 3, text: '' });
});

test('the first character makes the box in the same change; later input inserts and deletes', () => {
  const session = new FakeSession();
  const field = new Field(session);
  const first = field.type('H');
  assert.deepEqual(first.operations.map((op) => op.op), ['addText', 'insertText']);
  assert.equal(first.operations[1].box, strokeId(first.id, 0));
  assert.equal(first.operations[1].after, null);
  field.type('Hello');
  assert.equal(session.board.text(field.box), 'Hello');
  assert.deepEqual(field.shown, anchors(session.board, field.box), 'the field names the board’s characters');
  // A selection "ell" typed over: one change, a delete of the three and an insert after "H".
  const replace = field.type('Hipo', 3);
  assert.deepEqual(replace.operations.map((op) => op.op), ['deleteText', 'insertText']);
  assert.deepEqual(replace.operations[1].after, field.shown[0]);
  assert.equal(session.board.text(field.box), 'Hipo');
  field.type('Hi\npo', 3);
  field.type('i\npo', 0);
  assert.equal(session.board.text(field.box), 'i\npo');
  assert.deepEqual(field.shown, anchors(session.board, field.box));
  // A burst of typing into one box is one undo step.
  session.undo();
  assert.equal(session.board.stroke(field.box), null, 'the box and its typing go in one undo');
});

test('a deletion is a range per stretch of one run', () => {
  const session = new FakeSession();
  const field = new Field(session);
  field.type('abc');
  field.type('abcdef');
  const change = field.type('a', 1);
  assert.equal(change.operations.length, 1);
  const runs = [strokeId(session.committed[0].id, 1), strokeId(session.committed[1].id, 0)];
  assert.deepEqual(change.operations[0].ranges, [
    { run: runs[0], from: 1, to: 3 },
    { run: runs[1], from: 0, to: 3 },
  ]);
  const many = Array.from({ length: 10_001 }, (_, i) => ({ run: `r${i}`, offset: 0 }));
  assert.deepEqual(deleteOperations('box', many).map((op) => op.ranges.length), [10_000, 1], 'at most 10,000 ranges an operation');
});

test('a paste longer than an insert may hold goes in several, each after the one before', () => {
  const session = new FakeSession();
  const field = new Field(session);
  field.type('<>');
  const long = 'x'.repeat(100_001) + '😀';
  const change = field.type(`<${long}>`, long.length + 1);
  assert.deepEqual(change.operations.map((op) => [...op.text].length), [100_000, 2]);
  assert.deepEqual(change.operations[1].after, { run: strokeId(change.id, 0), offset: 99_999 });
  assert.equal(session.board.text(field.box), `<${long}>`);
  assert.deepEqual(field.shown, anchors(session.board, field.box));
});

test('the caret stays after the same character when others type', () => {
  const board = new Board('main');
  const ada = new FakeSession(board, testAuthor(1));
  const field = new Field(ada);
  field.type('Hello');
  const bob = new FakeSession(new Board('main'), testAuthor(2));
  for (const change of ada.committed) bob.board.apply(change);
  const bobs = new Field(bob, field.box);
  const before = anchors(board, field.box);

  // Bob types before Ada's caret (at 3, after "Hel") and after it.
  for (const change of [bobs.type('XHello', 1), bobs.type('XHello!', 7)]) board.apply(change);
  assert.equal(board.text(field.box), 'XHello!');
  assert.equal(mapCaret(before, 3, anchors(board, field.box)), 4, 'after "l" still');
  assert.equal(mapCaret(before, 5, anchors(board, field.box)), 6, 'after "o", before Bob’s "!"');
  assert.equal(mapCaret(before, 0, anchors(board, field.box)), 0);

  // Bob deletes "ll": a caret after the second "l" goes after "e", the nearest character left.
  const now = anchors(board, field.box);
  board.apply(bobs.type('XHeo!', 3));
  assert.equal(board.text(field.box), 'XHeo!');
  assert.equal(mapCaret(now, 5, anchors(board, field.box)), 3);
  assert.equal(mapCaret(now, 2, anchors(board, field.box)), 2);
  board.apply(bobs.type('eo!', 0));
  assert.equal(mapCaret(now, 2, anchors(board, field.box)), 0, 'nothing left before it: the start');
});

test('concurrent typing at one caret keeps each person’s run whole', () => {
  const ada = new FakeSession(new Board('main'), testAuthor(1));
  const adas = new Field(ada);
  adas.type('Hello');
  const bob = new FakeSession(new Board('main'), testAuthor(2));
  for (const change of ada.committed) bob.board.apply(change);
  const bobs = new Field(bob, adas.box);
  // Each types a letter at a time at the end of what they see, never seeing the other's yet.
  const theirs = [];
  for (const [a, b] of [...' there'].map((a, i) => [a, ' world'[i]])) {
    theirs.push(adas.type(adas.value + a), bobs.type(bobs.value + b));
  }
  for (const change of theirs) (change.id.replica === ada.author.replica ? bob : ada).board.apply(change);
  const text = ada.board.text(adas.box);
  assert.equal(bob.board.text(adas.box), text);
  assert.ok(text.startsWith('Hello') && text.includes(' there') && text.includes(' world'), text);
});
