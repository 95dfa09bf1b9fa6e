// The selection (js/app/selection.js): ids that follow the board, whoever changes it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { Selection } from '../../js/app/selection.js';
import { strokeId } from '../../js/model/ids.js';
import { FakeSession, add, line, testAuthor } from './support.mjs';

/** Two people on one board: `mine` selects, `theirs` changes the board under the selection. */
function setup() {
  const board = new Board('main');
  const mine = new FakeSession(board, testAuthor(1));
  const theirs = new FakeSession(board, testAuthor(2));
  const selection = new Selection(board);
  let heard = 0;
  selection.onChange(() => heard++);
  for (const session of [mine, theirs]) session.addEventListener('change', (event) => selection.follow(event.detail.delta));
  const draw = (session, points) => strokeId(session.commit([add(points)]).id, 0);
  return { board, mine, theirs, selection, draw, heard: () => heard };
}

test('set, toggle and add keep sorted ids of strokes the board shows', () => {
  const { mine, selection, draw } = setup();
  const a = draw(mine, line(3));
  const b = draw(mine, line(3, { y: 50 }));
  selection.set([b, a, a, 'ff'.repeat(16) + '-9-0']);
  assert.deepEqual(selection.ids, [a, b].sort(), 'unknown strokes are not selected');
  selection.toggle([a]);
  assert.deepEqual(selection.ids, [b]);
  selection.toggle([a]);
  assert.deepEqual(selection.ids, [a, b].sort());
  selection.clear();
  selection.add([b]);
  assert.deepEqual(selection.ids, [b]);
  assert.deepEqual(selection.stacked().map((s) => s.id), [b]);
});

test('strokes another deletes, undoes or clears away leave the selection', () => {
  const { mine, theirs, selection, draw, heard } = setup();
  const a = draw(mine, line(3));
  const b = draw(theirs, line(3, { y: 50 }));
  const c = draw(mine, line(3, { y: 100 }));
  selection.set([a, b, c]);
  const before = heard();
  draw(theirs, line(3, { y: 300 }));
  assert.equal(heard(), before, 'a change that touches no selected stroke is not heard');
  theirs.commit([{ op: 'set', stroke: a, attribute: 'deleted', value: true }]);
  assert.deepEqual(selection.ids, [b, c].sort());
  theirs.undo(); // their last change was the delete: a comes back, unselected
  theirs.undo(); // then the stroke they drew at y = 300
  theirs.undo(); // then b itself
  assert.deepEqual(selection.ids, [c]);
  theirs.commit([{ op: 'clear' }]);
  assert.deepEqual(selection.ids, []);
  assert.equal(selection.bounds, null);
});

test('the box follows a remote move of a selected stroke', () => {
  const { mine, theirs, selection, draw } = setup();
  const a = draw(mine, line(3)); // 0…20, width 2
  selection.set([a]);
  assert.deepEqual(selection.bounds, { minX: -1, minY: -1, maxX: 21, maxY: 1 });
  theirs.commit([{ op: 'set', stroke: a, attribute: 'transform', value: [1, 0, 0, 1, 100, 40] }]);
  assert.deepEqual(selection.bounds, { minX: 99, minY: 39, maxX: 121, maxY: 41 });
  assert.deepEqual(selection.ids, [a]);
});
