// Every case of Conformance/inert.json (written by Tests/InkwellBoardTests/InertVectorTests.swift): the page
// finds exactly the changes Swift finds inert within a cut, so both hold a room snapshot to one rule.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { compareChangeIds } from '../../js/model/ids.js';

const vectors = JSON.parse(readFileSync(new URL('../../../Conformance/inert.json', import.meta.url), 'utf8'));

test('the vector file is the one this test reads, and exercises the rule', () => {
  assert.equal(vectors.format, 'inkwell-inert-conformance/1');
  assert.ok(vectors.cases.length >= 9, `only ${vectors.cases.length} cases`);
  assert.ok(vectors.cases.reduce((sum, testCase) => sum + testCase.inert.length, 0) > 50);
});

for (const testCase of vectors.cases) {
  test(`inert conformance: ${testCase.name}`, () => {
    const board = new Board('main');
    board.applyAll(testCase.changes);
    const cut = new Map(testCase.cut.map(({ replica, seq }) => [replica, seq]));
    const inert = board.inertChanges(testCase.changes, cut).sort(compareChangeIds);
    assert.deepEqual(inert, testCase.inert);
  });
}
