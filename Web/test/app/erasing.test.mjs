// What the erasers cut (js/app/erasing.js), against the board the cuts are committed to.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Scene } from '../../js/app/scene.js';
import { deleteOperations, eraseOperations, overlap, partialCuts, strokeHits } from '../../js/app/erasing.js';
import { strokeId } from '../../js/model/ids.js';
import { FakeSession, add, line } from './support.mjs';

function setup() {
  const session = new FakeSession();
  const scene = new Scene(session.board);
  session.addEventListener('change', (event) => scene.update(event.detail.delta));
  return { session, scene };
}

test('the partial eraser cuts the parameters within its radius, and the cut commits as seen', () => {
  const { session, scene } = setup();
  const id = strokeId(session.commit([add(line(11))]).id, 0); // x = 0…100 at y = 0
  const { cuts, reach } = partialCuts(scene, [[50, -20], [50, 20]], 5);
  assert.deepEqual(reach, { minX: 45, minY: -25, maxX: 55, maxY: 25 });
  const [[lower, upper]] = cuts.get(id);
  assert.ok(Math.abs(lower - 4.5) < 0.01 && Math.abs(upper - 5.5) < 0.01, `${lower}…${upper}`);
  const operations = eraseOperations(cuts, session.board);
  assert.deepEqual(operations, [{ op: 'erase', stroke: id, intervals: cuts.get(id) }]);
  session.commit(operations);
  assert.deepEqual(session.board.stroke(id).pieces, [[0, lower], [upper, 10]]);
  assert.equal(partialCuts(scene, [[50, -20], [50, 20]], 5).cuts.size, 0, 'erasing the same place again cuts nothing');
});

test('strokes far from the eraser are not even tested', () => {
  const { session, scene } = setup();
  session.commit([add(line(11, { y: 500 }))]);
  assert.equal(partialCuts(scene, [[50, 0]], 5).cuts.size, 0);
  assert.deepEqual(strokeHits(scene, [[50, 0]], 5), []);
});

test('cuts are limited to what the board still shows', () => {
  const { session } = setup();
  const id = strokeId(session.commit([add(line(11))]).id, 0);
  session.commit([{ op: 'erase', stroke: id, intervals: [[2, 4]] }]);
  const cuts = new Map([[id, [[1, 3], [3.5, 5]]]]);
  assert.deepEqual(eraseOperations(cuts, session.board), [{ op: 'erase', stroke: id, intervals: [[1, 2], [4, 5]] }]);
  assert.deepEqual(eraseOperations(new Map([[id, [[2.5, 3.5]]]]), session.board), [], 'nothing visible: no operation');
  assert.deepEqual(eraseOperations(new Map([['ff'.repeat(16) + '-9-0', [[0, 1]]]]), session.board), [], 'unknown strokes are skipped');
});

test('the stroke eraser touches ink, not only the centre line', () => {
  const { session, scene } = setup();
  const thick = strokeId(session.commit([add(line(11), { width: 20 })]).id, 0);
  const thin = strokeId(session.commit([add(line(11, { y: 40 }), { width: 1 })]).id, 0);
  assert.deepEqual(strokeHits(scene, [[50, 14]], 5), [thick], 'within half the width plus the radius');
  assert.deepEqual(strokeHits(scene, [[50, 30]], 5), []);
  assert.deepEqual(deleteOperations([thin, thick, thin]), [
    { op: 'set', stroke: [thin, thick].sort()[0], attribute: 'deleted', value: true },
    { op: 'set', stroke: [thin, thick].sort()[1], attribute: 'deleted', value: true },
  ]);
});

test('a dot is erased whole', () => {
  const { session, scene } = setup();
  const id = strokeId(session.commit([add([[10, 10]], { width: 6 })]).id, 0);
  const { cuts } = partialCuts(scene, [[12, 10]], 4);
  assert.deepEqual(cuts.get(id), [[0, 1]]);
  session.commit(eraseOperations(cuts, session.board));
  assert.equal(session.board.stroke(id), null);
});

test('overlap keeps the parts of intervals inside pieces', () => {
  assert.deepEqual(overlap([[0, 10]], [[1, 2], [3, 4]]), [[1, 2], [3, 4]]);
  assert.deepEqual(overlap([[1.5, 3.5]], [[1, 2], [3, 4]]), [[1.5, 2], [3, 3.5]]);
  assert.deepEqual(overlap([[2, 3]], [[1, 2], [3, 4]]), []);
  assert.deepEqual(overlap([], [[0, 1]]), []);
});
