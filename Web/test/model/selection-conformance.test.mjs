// Every case of Conformance/selection.json (Tests/InkwellBoardTests/SelectionVectorTests.swift): the page's
// selection edits write the operations Swift's `SelectionEdits` writes, the board they make has Swift's
// hash, and the lasso selects what Swift's `StrokeIndex.select` selects.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { IDENTITY } from '../../js/model/board-drawing.js';
import { compareStrokeRefs, parseStrokeId, strokeId } from '../../js/model/ids.js';
import {
  backOperations,
  colourOperations,
  copyOperations,
  frontOperations,
  rotationAbout,
  scalingAbout,
  transformOperations,
  translation,
  widthOperations,
} from '../../js/model/selection-edits.js';
import { deleteOperations } from '../../js/app/erasing.js';
import { lasso, lassoSelects, smoothCurve } from '../../js/geometry/index.js';

const vectors = JSON.parse(readFileSync(new URL('../../../Conformance/selection.json', import.meta.url), 'utf8'));

/** The operations `edit` writes on the board's `selection`, as the page makes them. */
function operationsFor(board, selection, edit) {
  const strokes = selection.map((id) => board.stroke(id)).filter((stroke) => stroke !== null);
  switch (edit.kind) {
    case 'move':
      return transformOperations(strokes, translation(edit.dx, edit.dy));
    case 'scale':
      return transformOperations(strokes, scalingAbout(edit.sx, edit.sy, edit.pivot));
    case 'rotate':
      return transformOperations(strokes, rotationAbout(edit.angle, edit.pivot));
    case 'colour':
      return colourOperations(strokes, edit.colour);
    case 'width':
      return widthOperations(strokes, edit.width);
    case 'delete':
      return deleteOperations(selection);
    case 'front':
      return frontOperations(new Set(selection), board.strokes());
    case 'back':
      return backOperations(new Set(selection), board.strokes());
    case 'copy': {
      // Bottom to top, as the page copies them.
      const stack = board.strokes();
      const chosen = stack.filter((stroke) => selection.includes(stroke.id));
      return copyOperations(chosen, [edit.dx, edit.dy], (i) => strokeId(edit.change, i), stack);
    }
    default:
      throw new Error(`unknown edit ${edit.kind}`);
  }
}

test('the vector file has every kind of edit and lasso', () => {
  const kinds = new Set(vectors.cases.map((testCase) => testCase.edit.kind));
  for (const kind of ['move', 'scale', 'rotate', 'colour', 'width', 'delete', 'front', 'back', 'copy']) assert.ok(kinds.has(kind), kind);
  assert.ok(vectors.lassos.length >= 5);
});

for (const testCase of vectors.cases) {
  test(`selection: ${testCase.name}`, () => {
    const board = new Board('main');
    for (const change of testCase.board) board.apply(change);
    const operations = operationsFor(board, testCase.selection, testCase.edit);
    if (testCase.edit.kind === 'rotate') {
      assert.equal(operations.length, testCase.expected.operations.length);
      operations.forEach((operation, i) => {
        const expected = testCase.expected.operations[i];
        assert.equal(operation.stroke, expected.stroke);
        operation.value.forEach((value, j) => assert.ok(Math.abs(value - expected.value[j]) <= 1e-12, `${value} against ${expected.value[j]}`));
      });
      return;
    }
    assert.deepEqual(operations, testCase.expected.operations);
    // Made by the page, applied as Swift's change: Swift's board, to the byte.
    board.apply({ ...testCase.expected.change, operations });
    board.checkInvariants();
    assert.equal(board.hash(), testCase.expected.hash);
    assert.deepEqual(board.strokes(), testCase.expected.strokes);
  });
}

for (const testCase of vectors.lassos) {
  test(`lasso: ${testCase.name}`, () => {
    const board = new Board('main');
    for (const change of vectors.cases[0].board) board.apply(change);
    const chosen = lasso(testCase.polygon);
    const selected = board
      .strokes()
      .filter((stroke) => {
        const t = stroke.transform ?? IDENTITY;
        const curve = smoothCurve(stroke.points.map(([x, y]) => [t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5]]));
        return lassoSelects(chosen, curve, stroke.points.length === 1 ? null : stroke.pieces);
      })
      .map((stroke) => stroke.id)
      .sort((a, b) => compareStrokeRefs(parseStrokeId(a), parseStrokeId(b)));
    assert.deepEqual(selected, testCase.selected);
  });
}
