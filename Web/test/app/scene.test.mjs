// The scene kept from board deltas (js/app/scene.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Scene } from '../../js/app/scene.js';
import { strokeId } from '../../js/model/ids.js';
import { FakeSession, add, line } from './support.mjs';

function setup() {
  const session = new FakeSession();
  const scene = new Scene(session.board);
  const changes = [];
  session.addEventListener('change', (event) => changes.push(scene.update(event.detail.delta)));
  return { session, scene, changes };
}

const meets = (a, b) => a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;

test('new strokes are added on top, findable where their ink is', () => {
  const { session, scene, changes } = setup();
  const first = strokeId(session.commit([add(line(5), { width: 4 })]).id, 0);
  const second = strokeId(session.commit([add(line(5, { y: 1000 }))]).id, 0);
  assert.deepEqual(changes.map((c) => c.added), [[first], [second]]);
  assert.deepEqual(changes.map((c) => c.dirty), [[], []], 'a new stroke dirties nothing: it is painted on top');
  assert.equal(scene.count, 2);
  assert.ok(scene.onTop([second]));
  assert.ok(!scene.onTop([first]));
  assert.deepEqual(scene.query({ minX: 0, minY: -5, maxX: 50, maxY: 5 }).map((s) => s.id), [first]);
  assert.deepEqual(scene.query({ minX: -1e6, minY: -1e6, maxX: 1e6, maxY: 1e6 }).map((s) => s.id), [first, second]);
  const bounds = scene.stroke(first).bounds;
  assert.ok(bounds.minX <= -2 && bounds.maxX >= 42 && bounds.minY <= -2 && bounds.maxY >= 2, 'bounds hold the width');
});

test('an erase dirties the stroke; a clear asks for everything', () => {
  const { session, scene, changes } = setup();
  const id = strokeId(session.commit([add(line(5))]).id, 0);
  session.commit([{ op: 'erase', stroke: id, intervals: [[1, 2]] }]);
  assert.equal(changes[1].dirty.length, 2);
  assert.deepEqual(scene.stroke(id).shown, [[0, 1], [2, 4]]);
  session.commit([{ op: 'clear' }]);
  assert.deepEqual(changes[2], { dirty: [], added: [], everything: true });
  assert.equal(scene.count, 0);
  session.undo();
  assert.equal(scene.count, 1);
});

test('a stroke deleted goes from the scene and its area is dirty', () => {
  const { session, scene, changes } = setup();
  const id = strokeId(session.commit([add(line(5))]).id, 0);
  const bounds = scene.stroke(id).bounds;
  session.commit([{ op: 'set', stroke: id, attribute: 'deleted', value: true }]);
  assert.deepEqual(changes[1].dirty, [bounds]);
  assert.equal(scene.stroke(id), undefined);
  assert.deepEqual(scene.query(bounds), []);
});

test('restacking is noticed: the rank order follows the board', () => {
  const { session, scene } = setup();
  const a = strokeId(session.commit([add(line(3))]).id, 0);
  const b = strokeId(session.commit([add(line(3))]).id, 0);
  assert.deepEqual(scene.query({ minX: 0, minY: 0, maxX: 5, maxY: 5 }).map((s) => s.id), [a, b]);
  session.commit([{ op: 'set', stroke: b, attribute: 'zOrder', value: -1 }]);
  assert.deepEqual(scene.query({ minX: 0, minY: 0, maxX: 5, maxY: 5 }).map((s) => s.id), [b, a]);
  assert.ok(scene.onTop([a]));
});

test('the eraser preview hides parts at once and changes nothing when its erase lands', () => {
  const { session, scene, changes } = setup();
  const id = strokeId(session.commit([add(line(5))]).id, 0);
  const reach = { minX: 15, minY: -5, maxX: 25, maxY: 5 };
  const dirty = scene.preview(id, [[1.5, 2.5]], reach);
  assert.ok(meets(dirty, reach) && dirty.maxX - dirty.minX < 20, 'only the eraser’s reach repaints');
  assert.deepEqual(scene.stroke(id).shown, [[0, 1.5], [2.5, 4]]);
  assert.deepEqual(scene.stroke(id).pieces, [[0, 4]], 'the board is not touched');
  session.commit([{ op: 'erase', stroke: id, intervals: [[1.5, 2.5]] }]);
  assert.deepEqual(changes[1].dirty, [], 'the committed erase looks like the preview');
  assert.deepEqual(scene.clearPreview(), []);
  assert.ok(!scene.previewing);
});

test('a preview that is dropped repaints what it hid', () => {
  const { session, scene } = setup();
  const id = strokeId(session.commit([add(line(5))]).id, 0);
  scene.preview(id, 'hidden');
  assert.deepEqual(scene.query(scene.stroke(id).bounds), [], 'hidden strokes are not painted');
  assert.equal(scene.near(scene.stroke(id).bounds).length, 1, 'but erasers still see them');
  assert.deepEqual(scene.clearPreview(), [scene.stroke(id).bounds]);
  assert.equal(scene.query(scene.stroke(id).bounds).length, 1);
});

test('a dot is shown until a cut covers it', () => {
  const { session, scene } = setup();
  const id = strokeId(session.commit([add([[5, 5]])]).id, 0);
  assert.deepEqual(scene.stroke(id).shown, [[0, 0]]);
  scene.preview(id, [[0, 1]]);
  assert.deepEqual(scene.stroke(id).shown, []);
});

test('a transformed stroke is indexed where the transform puts it', () => {
  const { session, scene } = setup();
  const id = strokeId(session.commit([add(line(3))]).id, 0);
  session.commit([{ op: 'set', stroke: id, attribute: 'transform', value: [1, 0, 0, 1, 1000, 0] }]);
  assert.deepEqual(scene.query({ minX: 0, minY: -5, maxX: 30, maxY: 5 }), []);
  assert.equal(scene.query({ minX: 1000, minY: -5, maxX: 1030, maxY: 5 }).length, 1);
  assert.equal(scene.stroke(id).hitCurve.points[0][0], 1000, 'erasers test the moved curve');
  assert.equal(scene.stroke(id).curve.points[0][0], 0, 'painting applies the transform itself');
});
