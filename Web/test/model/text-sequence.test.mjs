// The page's text sequence (js/model/text-sequence.js) against Swift's, on Conformance/text.json, and its
// behaviour under concurrent typing and hostile inserts. Inserts carry their full id ({stamp, change,
// index}); anchors and deletes name a run by its operation alone ({change, index}).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { MAXIMUM_RUN_LENGTH, TextSequence } from '../../js/model/text-sequence.js';

const vectors = JSON.parse(readFileSync(new URL('../../../Conformance/text.json', import.meta.url), 'utf8'));

function apply(text, operation) {
  if (operation.op === 'insert') text.insert(operation.text, operation.id, operation.after);
  else text.delete(operation.run, operation.from, operation.to);
}

test('the vector file has sessions with every kind of operation', () => {
  assert.ok(vectors.sessions.length >= 3);
  const kinds = new Set(vectors.sessions.flatMap((session) => session.operations.map((operation) => operation.op)));
  assert.deepEqual([...kinds].sort(), ['delete', 'insert']);
});

for (const session of vectors.sessions) {
  test(`text conformance: session ${session.seed}`, () => {
    const text = new TextSequence();
    for (const operation of session.operations) apply(text, operation);
    assert.equal(text.text, session.text);
    assert.deepEqual(
      text.characters().filter((character) => character.visible).map((character) => character.anchor),
      session.anchors,
    );
    // Any other order, with repeats, gives the same.
    const reversed = new TextSequence();
    for (const operation of [...session.operations].reverse()) apply(reversed, operation);
    assert.equal(reversed.text, session.text);
  });
}

const id = (wall, replica, seq) => ({ stamp: { wall, counter: 0 }, change: { replica: replica.repeat(32), seq }, index: 0 });
/** The run an insert made, as anchors and deletes name it. */
const op = ({ change, index }) => ({ change, index });

test('anchors name a run by its operation, without its stamp, and deletes take the same', () => {
  const text = new TextSequence();
  const first = id(1, 'a', 1);
  const second = { ...id(2, 'b', 1), index: 3 };
  text.insert('ab', first, null);
  text.insert('cd', second, { run: op(first), offset: 0 });
  assert.equal(text.text, 'acdb');
  assert.deepEqual(
    text.characters().map((character) => character.anchor),
    [
      { run: op(first), offset: 0 },
      { run: op(second), offset: 0 },
      { run: op(second), offset: 1 },
      { run: op(first), offset: 1 },
    ],
  );
  assert.deepEqual(text.anchorOfVisible(1), { run: op(second), offset: 0 });
  assert.equal(text.delete(op(second), 0, 1), true);
  assert.equal(text.delete(op(second), 0, 1), false, 'hidden already');
  assert.equal(text.text, 'adb');
  // A run is its operation: another insert by the same operation, with another stamp, is the same run.
  assert.equal(text.insert('zz', { ...first, stamp: { wall: 9, counter: 0 } }, null), false);
  assert.equal(text.insert('x', id(3, 'a', 2), { run: op(id(3, 'a', 2)), offset: 0 }), false, 'after itself');
});

test('siblings go newest first by the full stamp, whatever their operation ids', () => {
  const text = new TextSequence();
  const base = id(1, 'a', 1);
  text.insert('_', base, null);
  // The later stamp goes first, though its change id sorts lower.
  text.insert('old', id(5, 'f', 9), { run: op(base), offset: 0 });
  text.insert('new', id(6, 'b', 2), { run: op(base), offset: 0 });
  assert.equal(text.text, '_newold');
});

test('two people typing at one place keep their words whole', () => {
  const base = id(1, 'a', 1);
  const anchor = { run: op(base), offset: 2 };
  const make = () => {
    const text = new TextSequence();
    text.insert('Hi !', base, null);
    return text;
  };
  const type = (text, word, first, replica) => {
    let after = anchor;
    [...word].forEach((character, i) => {
      const run = id(first + i, replica, 2 + i);
      text.insert(character, run, after);
      after = { run: op(run), offset: 0 };
    });
  };
  const a = make();
  type(a, 'there', 10, 'a');
  type(a, 'you', 11, 'b');
  assert.ok(['Hi thereyou!', 'Hi youthere!'].includes(a.text), a.text);
});

test('hostile inserts change nothing they should not', () => {
  const text = new TextSequence();
  assert.equal(text.insert('ab', id(1, 'a', 1), null), true);
  assert.equal(text.insert('zz', id(1, 'a', 1), null), false);
  assert.equal(text.insert('', id(2, 'a', 2), null), false);
  assert.equal(text.insert('x'.repeat(MAXIMUM_RUN_LENGTH + 1), id(2, 'a', 2), null), false);
  text.insert('past', id(3, 'a', 3), { run: op(id(1, 'a', 1)), offset: 2 });
  text.insert('d', id(4, 'a', 4), { run: op(id(5, 'a', 5)), offset: 0 });
  text.insert('e', id(5, 'a', 5), { run: op(id(4, 'a', 4)), offset: 0 });
  assert.equal(text.text, 'ab');
  const deep = new TextSequence();
  let after = null;
  for (let n = 0; n < 100_000; n++) {
    const run = id(n + 1, 'c', n + 1);
    deep.insert('x', run, after);
    after = { run: op(run), offset: 0 };
  }
  assert.equal(deep.text.length, 100_000);
});
