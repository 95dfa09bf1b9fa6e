// Which changes stop mattering (docs/ARCHITECTURE.md, "Settling"), as Swift's InertChangesTests: dropping
// the changes a board calls inert changes nothing a user can see, now or after anything that arrives later,
// and compacting again from what is left stays safe. Seeded: INKWELL_SEED reruns.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeKey } from '../../js/model/ids.js';
import { add, line, strokeOf, testAuthor } from './support/authors.mjs';
import { reproducibly, runSeed, seededRandom } from './support/random.mjs';
import { boardAfter } from './support/boards.mjs';
import { ReplicaSession } from './support/replica-session.mjs';

/** The keys of the changes `board` finds inert among `changes` within `cut`. */
function inertKeys(board, changes, cut) {
  return new Set(board.inertChanges(changes, cut).map(changeKey));
}

const cut = (...entries) => new Map(entries.map(([author, seq]) => [author.replica, seq]));
const settle = (through, inactive = []) => ({ op: 'settle', through, inactive });
const erase = (change, intervals) => ({ op: 'erase', stroke: strokeOf(change), intervals });
const set = (change, attribute, value) => ({ op: 'set', stroke: strokeOf(change), attribute, value });

test('an undone stroke is inert once its author settles, and its undo no longer counts', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(4))]);
  const undo = alice.makeChange('main', [{ op: 'undo', change: drawn.id }]);
  assert.deepEqual(boardAfter([drawn, undo]).inertChanges([drawn, undo], cut([alice, 2])), []);

  const settled = [drawn, undo, alice.makeChange('main', [settle(2, [1])])];
  const board = boardAfter(settled);
  assert.deepEqual(inertKeys(board, settled, cut([alice, 3])), new Set([changeKey(drawn.id), changeKey(undo.id)]));
  assert.deepEqual(
    board.inertChanges(settled, cut([alice, 2])),
    [undo.id],
    'with the settle outside the cut, the stroke may not be dropped, but the undo no longer counts',
  );
});

test('a stroke erased away is inert once its erases are settled, and the erases stay as its proof', () => {
  const alice = testAuthor(1);
  const bob = testAuthor(2);
  const drawn = alice.makeChange('main', [add(line(5))]);
  bob.witness(drawn.stamp);
  const half = bob.makeChange('main', [erase(drawn, [[-1, 2.5]])]);
  const rest = bob.makeChange('main', [erase(drawn, [[2, 5]])]);
  const other = alice.makeChange('main', [add(line(3, 10))]);
  const changes = [drawn, half, rest, other];
  assert.equal(boardAfter(changes).visibleStrokeCount, 1);
  assert.deepEqual(boardAfter(changes).inertChanges(changes, cut([alice, 2], [bob, 2])), []);

  const all = [...changes, alice.makeChange('main', [settle(2)]), bob.makeChange('main', [settle(2)])];
  const board = boardAfter(all);
  assert.deepEqual(board.inertChanges(all, cut([alice, 3], [bob, 3])), [drawn.id]);
  const open = board.inertChanges(all, cut([alice, 3], [bob, 2]));
  assert.deepEqual(open, [], 'an erase that may still be undone keeps the stroke');
});

test('a deleted or cleared stroke is inert, an earlier write superseded; the proof of a stroke’s end stays', () => {
  const alice = testAuthor(1);
  const bob = testAuthor(2);
  const deleted = alice.makeChange('main', [add(line(3))]);
  const deletion = alice.makeChange('main', [set(deleted, 'deleted', true)]);
  const cleared = alice.makeChange('main', [add(line(3, 5))]);
  bob.witness(cleared.stamp);
  const recolour = bob.makeChange('main', [set(cleared, 'colour', 0x000000ff)]);
  const clear = bob.makeChange('main', [{ op: 'clear' }]);
  alice.witness(clear.stamp);
  const after = alice.makeChange('main', [add(line(3, 9))]);
  const deleteAfter = alice.makeChange('main', [set(after, 'deleted', true)]);
  const kept = alice.makeChange('main', [add(line(3, 12))]);
  const red = alice.makeChange('main', [set(kept, 'colour', 0xff0000ff)]);
  const blue = alice.makeChange('main', [set(kept, 'colour', 0x0000ffff)]);
  const settles = [alice.makeChange('main', [settle(8)]), bob.makeChange('main', [settle(2)])];
  const lateUndo = alice.makeChange('main', [{ op: 'undo', change: blue.id }]);
  const all = [deleted, deletion, cleared, recolour, clear, after, deleteAfter, kept, red, blue, ...settles, lateUndo];
  const board = boardAfter(all);
  // The clear proves the first stroke's end, so its deletion goes too; the last one's deletion stays.
  const expected = [deleted, deletion, cleared, recolour, after, red, lateUndo].map((change) => changeKey(change.id));
  assert.deepEqual(inertKeys(board, all, cut([alice, 10], [bob, 3])), new Set(expected));
  assert.equal(board.stroke(strokeOf(kept)).colour, 0x0000ffff, 'the late undo is void');
});

test('a change that is not inert shows when dropped; none is inert beside an operation of a newer schema', () => {
  const alice = testAuthor(1);
  const drawn = alice.makeChange('main', [add(line(3))]);
  const settled = alice.makeChange('main', [settle(1)]);
  assert.deepEqual(boardAfter([drawn, settled]).inertChanges([drawn, settled], cut([alice, 2])), []);
  assert.notEqual(boardAfter([settled]).hash(), boardAfter([drawn, settled]).hash());


  const bob = testAuthor(2);
  const undone = bob.makeChange('main', [add(line(4))]);
  const undo = bob.makeChange('main', [{ op: 'undo', change: undone.id }]);
  const closed = bob.makeChange('main', [settle(2, [1])]);
  const newer = bob.makeChange('main', [{ op: 'unknown', kind: 99, bytes: '9a0600' }]);
  const all = [undone, undo, closed];
  assert.deepEqual(inertKeys(boardAfter(all), all, cut([bob, 3])), new Set([undone, undo].map((c) => changeKey(c.id))));
  assert.deepEqual(boardAfter([...all, newer]).inertChanges([...all, newer], cut([bob, 3])), []);
  assert.deepEqual(boardAfter(all).inertChanges(all, new Map()), [], 'nothing outside the cut');
});

test('dropping the inert changes keeps the drawing, after later changes, and after compacting again (seeded)', (t) => {
  const seed = runSeed();
  t.diagnostic(`seed ${seed} (INKWELL_SEED=${seed} replays it)`);
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    let dropped = 0;
    let held = 0;
    for (let round = 0; round < 12; round++) {
      const session = new ReplicaSession(random, 4);
      session.run(400);
      const history = [...session.changes];
      const full = boardAfter(history);
      const first = session.randomCut();
      const inert = inertKeys(full, history, first);
      const kept = history.filter((change) => !inert.has(changeKey(change.id)));
      const changed = `round ${round}: the drawing changed when ${inert.size} were dropped`;
      assert.equal(boardAfter(kept).hash(), full.hash(), changed);

      session.run(200);
      const later = session.changes.slice(history.length);
      const compacted = boardAfter([...kept, ...later]);
      const fullLater = boardAfter(session.changes);
      const showed = `round ${round}: a later change showed what was dropped`;
      assert.equal(compacted.hash(), fullLater.hash(), showed);

      const second = session.randomCut(first);
      const laterInert = inertKeys(fullLater, session.changes, second);
      for (const key of inert) {
        assert.ok(laterInert.has(key), `round ${round}: ${key} stopped mattering within a cut, not within a later one`);
      }
      const left = [...kept, ...later];
      const inertAgain = inertKeys(compacted, left, second);
      const keptAgain = left.filter((change) => !inertAgain.has(changeKey(change.id)));
      session.run(200);
      const last = session.changes.slice(history.length + later.length);
      assert.equal(
        boardAfter([...keptAgain, ...last]).hash(),
        boardAfter(session.changes).hash(),
        `round ${round}: compacting twice lost or showed something`,
      );
      dropped += inert.size + inertAgain.size;
      held += history.length + later.length;
    }
    t.diagnostic(`dropped ${dropped} of ${held}`);
    // Honest sessions settle, so a good share of their history stops mattering.
    assert.ok(dropped > held / 10, `only ${dropped} of ${held} dropped`);
  });
});
