// Every case of Conformance/board.json, byte for byte: the browser computes exactly what Swift computes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { boardCases, hex } from './support/vectors.mjs';

const VECTORS = new URL('../../../Conformance/board.json', import.meta.url);
const cases = boardCases(VECTORS);

test('the vector file has the cases Swift writes', () => {
  assert.ok(cases.length >= 20, `only ${cases.length} cases`);
});

for (const testCase of cases) {
  test(`conformance: ${testCase.name}`, () => {
    const board = new Board('main');
    for (const change of testCase.changes) board.apply(change);
    board.checkInvariants();
    assert.deepEqual(board.strokes(), testCase.expected.strokes);
    assert.equal(hex(board.canonicalEncoding()), testCase.expected.encoding);
    assert.equal(board.hash(), testCase.expected.hash);
    for (const stroke of testCase.expected.strokes) assert.deepEqual(board.stroke(stroke.id), stroke);
  });
}
