// A reloaded page's author: the stacks the user left and what is left to settle, rebuilt from the
// timeline's own changes, settles among them. Seeded: INKWELL_SEED reruns.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Author } from '../../js/model/author.js';
import { Board } from '../../js/model/board.js';
import { resumeAuthor } from '../../js/sync/resume-author.js';
import { strokeOf } from '../model/support/authors.mjs';
import { reproducibly, runSeed, seededRandom } from '../model/support/random.mjs';

const REPLICA = `0a${'0'.repeat(28)}0a`;

/**
 * A page's author and board, taking its changes as a session does: a settle after any change due one.
 * @param {Author} author
 * @param {object[]} [changes] what the page holds already
 */
function page(author, changes = []) {
  const board = new Board('main');
  board.applyAll(changes);
  const take = (change) => {
    if (change === null) return;
    board.apply(change);
    changes.push(change);
  };
  /** One user action, as `random` picks it: draw, stream into the last stroke drawn, undo or redo. */
  const act = (random) => {
    const roll = random.int(0, 9);
    const last = changes.findLast((change) => change.operations[0].op === 'addStroke');
    const more = last && { op: 'appendPoints', stroke: strokeOf(last), points: [[1, 1]], pressures: null };
    if (roll < 5 || last === undefined) take(author.makeChange(board, [stroke(random)]));
    else if (roll < 7) take(author.makeChange(board, [more]));
    else if (roll < 9) take(author.undo(board));
    else take(author.redo(board));
    take(author.settle(board));
  };
  return { author, board, changes, act };
}

function stroke(random) {
  const point = [random.int(0, 100), random.int(0, 100)];
  return { op: 'addStroke', colour: 0x000000ff, width: 2, points: [point], pressures: null };
}

/** What a reload must give back: the stacks and what is settled. */
function standing(author) {
  const history = author.history('main');
  return { seq: author.seq, done: history.done, undone: history.undone, through: author.unsettled('main').through };
}

test('a reload rebuilds the stacks and what is left to settle; both pages go on alike', () => {
  const seed = runSeed();
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    const live = page(new Author({ replica: REPLICA, now: () => 1_800_000_000_000 }));
    for (let i = 0; i < 3_000; i++) live.act(random);
    const settles = live.changes.filter((change) => change.operations[0].op === 'settle');
    assert.ok(settles.length >= 3, 'the session settled');

    const resumed = resumeAuthor({ replica: REPLICA, lastSeq: live.author.seq, board: 'main', changes: live.changes });
    assert.deepEqual(standing(resumed), standing(live.author));
    const reloaded = page(resumed, [...live.changes]);
    const from = live.changes.length;

    const state = random.int(0, 2 ** 31);
    const [first, second] = [seededRandom(state), seededRandom(state)];
    for (let i = 0; i < 1_200; i++) {
      live.act(first);
      reloaded.act(second);
    }
    const made = (changes) => changes.slice(from).map(({ id, operations }) => ({ id, operations }));
    assert.deepEqual(made(reloaded.changes), made(live.changes));
    assert.ok(made(live.changes).some((change) => change.operations[0].op === 'settle'), 'both settled again');
    assert.equal(reloaded.board.hash(), live.board.hash());
  });
});

test('a reload forgets what a settle covers, and replays no settle as a step', () => {
  const at = (seq, operations, board = 'main') => ({
    id: { replica: REPLICA, seq },
    stamp: { wall: seq, counter: 0 },
    board,
    operations,
  });
  const changes = [
    at(1, [stroke(seededRandom(1))]),
    at(2, [stroke(seededRandom(2))]),
    at(3, [{ op: 'undo', change: { replica: REPLICA, seq: 2 } }]),
    at(4, [stroke(seededRandom(4))]),
    at(5, [{ op: 'settle', through: 1, inactive: [] }]),
    at(6, [{ op: 'settle', through: 9, inactive: [] }]),
    at(7, [{ op: 'settle', through: 4, inactive: [] }], 'other'),
  ];
  const author = resumeAuthor({ replica: REPLICA, lastSeq: 7, board: 'main', changes });
  assert.deepEqual(standing(author), { seq: 7, done: [{ replica: REPLICA, seq: 4 }], undone: [], through: 1 });
});
