// The board is a function of the *set* of changes: every order and any duplication gives the same hash.
// Random orders come from a printed seed (INKWELL_SEED reruns one).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { permutations, reproducibly, runSeed, seededRandom } from './support/random.mjs';
import { boardCases } from './support/vectors.mjs';
import { boardAfter } from './support/boards.mjs';

const VECTORS = new URL('../../../Conformance/board.json', import.meta.url);
const cases = boardCases(VECTORS);

/** The changes in a random order, some of them delivered two or three times. */
function shuffledWithDuplicates(random, changes) {
  const delivered = [...changes];
  const extra = random.int(0, Math.max(1, Math.floor(changes.length / 4)));
  for (let i = 0; i < extra; i++) delivered.push(random.pick(changes));
  return random.shuffled(delivered);
}

test('small cases give the same hash in every delivery order', () => {
  for (const testCase of cases.filter((c) => c.changes.length <= 6)) {
    for (const order of permutations(testCase.changes)) {
      assert.equal(boardAfter(order).hash(), testCase.expected.hash, testCase.name);
    }
  }
});

test('every case gives the same hash under random orders and duplicates', () => {
  const seed = runSeed();
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    for (const testCase of cases) {
      const rounds = testCase.changes.length > 50 ? 25 : 40;
      for (let round = 0; round < rounds; round++) {
        const order = shuffledWithDuplicates(random, testCase.changes);
        const board = boardAfter(order);
        assert.equal(board.hash(), testCase.expected.hash, `${testCase.name}, round ${round}`);
        assert.deepEqual(board.strokes(), testCase.expected.strokes, `${testCase.name}, round ${round}`);
      }
    }
  });
});

test('batched delivery (applyAll) equals one by one', () => {
  const seed = runSeed();
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    for (const testCase of cases) {
      const board = new Board('main');
      const order = shuffledWithDuplicates(random, testCase.changes);
      for (let start = 0; start < order.length; ) {
        const size = random.int(1, 40);
        board.applyAll(order.slice(start, start + size));
        start += size;
      }
      board.checkInvariants();
      assert.equal(board.hash(), testCase.expected.hash, testCase.name);
    }
  });
});
