// What the select and lasso tools pick (js/app/selecting.js), against a scene of the board.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Scene } from '../../js/app/scene.js';
import { boxHits, lassoHits, pointHit, selectionBounds } from '../../js/app/selecting.js';
import { strokeId } from '../../js/model/ids.js';
import { FakeSession, add, line } from './support.mjs';

function setup() {
  const session = new FakeSession();
  const scene = new Scene(session.board);
  session.addEventListener('change', (event) => scene.update(event.detail.delta));
  const draw = (points, style) => strokeId(session.commit([add(points, style)]).id, 0);
  return { session, scene, draw };
}

const square = (x0, y0, x1, y1) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];

test('the lasso takes strokes mostly inside it, by their visible ink', () => {
  const { session, scene, draw } = setup();
  const inside = draw(line(5, { x: 10, y: 10 })); // 10…50 at y = 10
  const across = draw(line(11, { x: 50, y: 50 })); // 50…150: half outside
  const dot = draw([[30, 80]], { width: 6 });
  const far = draw(line(3, { x: 500, y: 500 }));
  assert.deepEqual(lassoHits(scene, square(0, 0, 100, 100)), [inside, dot].sort());
  // Erase the part of `across` outside the lasso: what is left is inside, so the lasso takes it.
  session.commit([{ op: 'erase', stroke: across, intervals: [[4.5, 10]] }]);
  assert.deepEqual(lassoHits(scene, square(0, 0, 100, 100)), [inside, across, dot].sort());
  assert.deepEqual(lassoHits(scene, square(0, 0, 100, 100).slice(0, 2)), [], 'two corners enclose nothing');
  assert.deepEqual(lassoHits(scene, square(0, 0, 1000, 1000)), [inside, across, dot, far].sort());
});

test('the lasso tests strokes where their transform puts them', () => {
  const { session, scene, draw } = setup();
  const id = draw(line(5, { x: 10, y: 10 }));
  session.commit([{ op: 'set', stroke: id, attribute: 'transform', value: [1, 0, 0, 1, 300, 0] }]);
  assert.deepEqual(lassoHits(scene, square(0, 0, 100, 100)), []);
  assert.deepEqual(lassoHits(scene, square(300, 0, 400, 100)), [id]);
});

test('a box takes only strokes whose painted bounds lie wholly inside it', () => {
  const { session, scene, draw } = setup();
  const a = draw(line(5, { x: 10, y: 10 }), { width: 4 }); // bounds 8…52 × 8…12
  const b = draw(line(5, { x: 10, y: 40 }), { width: 4 });
  assert.deepEqual(boxHits(scene, { minX: 8, minY: 8, maxX: 52, maxY: 41.5 }), [a], 'b reaches 2 px below its line');
  assert.deepEqual(boxHits(scene, { minX: 8, minY: 8, maxX: 52, maxY: 42 }), [a, b].sort(), 'edges count as inside');
  assert.deepEqual(boxHits(scene, { minX: 8.5, minY: 8, maxX: 52, maxY: 42 }), [], 'a half pixel short takes neither');
  assert.deepEqual(boxHits(scene, { minX: 0, minY: 0, maxX: 60, maxY: 60 }), [a, b].sort());
  assert.deepEqual(boxHits(scene, { minX: 20, minY: 0, maxX: 60, maxY: 60 }), [], 'a box over half of each takes neither');
  session.commit([{ op: 'set', stroke: a, attribute: 'transform', value: [2, 0, 0, 2, 0, 0] }]);
  assert.deepEqual(boxHits(scene, { minX: 0, minY: 0, maxX: 60, maxY: 60 }), [b], 'a scaled stroke is judged by its new bounds');
  assert.deepEqual(boxHits(scene, { minX: 10, minY: 10, maxX: 0, maxY: 0 }), [], 'an inside-out box takes nothing');
});

test('a click takes the topmost stroke whose ink is within reach', () => {
  const { session, scene, draw } = setup();
  const below = draw(line(11), { width: 2 });
  const above = draw(line(11), { width: 2 });
  assert.equal(pointHit(scene, [50, 3], 3), above);
  assert.equal(pointHit(scene, [50, 10], 3), null, 'the ink is 1 px wide on each side of the line');
  session.commit([{ op: 'set', stroke: above, attribute: 'zOrder', value: -1 }]);
  assert.equal(pointHit(scene, [50, 3], 3), below, 'the stack decides, not the order of drawing');
  session.commit([{ op: 'erase', stroke: below, intervals: [[4, 6]] }, { op: 'erase', stroke: above, intervals: [[4, 6]] }]);
  assert.equal(pointHit(scene, [50, 0], 3), null, 'erased ink is not there to click');
  const dot = draw([[300, 300]], { width: 10 });
  assert.equal(pointHit(scene, [306, 300], 2), dot);
});

test('the selection box is the union of the strokes’ bounds as the board draws them', () => {
  const { session, draw } = setup();
  const a = draw(line(3), { width: 2 }); // 0…20 at y = 0
  const b = draw([[100, 100]], { width: 10 });
  session.commit([{ op: 'set', stroke: a, attribute: 'transform', value: [1, 0, 0, 1, 0, -50] }]);
  assert.deepEqual(selectionBounds([session.board.stroke(a), session.board.stroke(b)]), { minX: -1, minY: -51, maxX: 105, maxY: 105 });
  assert.equal(selectionBounds([]), null);
});
