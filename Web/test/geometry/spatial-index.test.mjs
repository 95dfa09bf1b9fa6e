// The spatial index against a plain list, through inserts, updates and removes (ported from Swift's
// SpatialIndexTests), and the eraser's use of it on a large board.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, seed } from './support.mjs';
import { SpatialIndex } from '../../js/geometry/spatial-index.js';
import { rectsIntersect } from '../../js/geometry/rect.js';
import { smoothCurve, curveBounds } from '../../js/geometry/smooth-curve.js';
import { chunkBounds } from '../../js/geometry/chunk-bounds.js';
import { sweptPath } from '../../js/geometry/eraser-path.js';
import { cutCurve } from '../../js/geometry/eraser.js';

const box = (minX, minY, maxX, maxY) => ({ minX, minY, maxX, maxY });

function randomBoxes(random) {
  return Array.from({ length: random.int(1, 4) }, () => {
    const x = random.coordinate(-500, 1500);
    const y = random.coordinate(-500, 1500);
    const big = random.int(0, 19) === 0;
    return box(x, y, x + random.coordinate(0, big ? 3000 : 60), y + random.coordinate(0, big ? 3000 : 60));
  });
}

test('queries match a linear scan through inserts, updates and removes', () => {
  const value = seed();
  console.log(`spatial index seed=${value}`);
  const random = new Random(value);
  for (const cellSize of [16, 128, 1000]) {
    const index = new SpatialIndex({ cellSize, maximumCellsPerBox: 64 });
    const model = [];
    let nextID = 0;
    for (let step = 0; step < 2000; step++) {
      const roll = random.int(0, 9);
      if (roll < 5 || model.length === 0) {
        const boxes = randomBoxes(random);
        assert.equal(index.insert(nextID, boxes), true);
        model.push({ id: nextID++, boxes });
      } else if (roll < 7) {
        const item = model[random.int(0, model.length - 1)];
        item.boxes = randomBoxes(random);
        assert.equal(index.update(item.id, item.boxes), true);
      } else {
        const position = random.int(0, model.length - 1);
        assert.equal(index.remove(model[position].id), true);
        model.splice(position, 1);
      }
      const x = random.coordinate(-600, 1600);
      const y = random.coordinate(-600, 1600);
      const size = random.coordinate(0, 200);
      const query = box(x, y, x + size, y + size);
      const expected = model.filter((item) => item.boxes.some((b) => rectsIntersect(b, query))).map((item) => item.id);
      assert.deepEqual(index.query(query), expected, `seed ${value} cell ${cellSize} step ${step}`);
      if (step % 100 === 0) index.checkInvariants();
    }
    index.checkInvariants();
    assert.equal(index.count, model.length);
    assert.deepEqual(index.query(box(-Infinity, -Infinity, Infinity, Infinity)), model.map((item) => item.id));
  }
});

test('inserting twice and updating or removing unknown ids change nothing', () => {
  const index = new SpatialIndex();
  assert.equal(index.insert('a', [box(0, 0, 10, 10)]), true);
  assert.equal(index.insert('a', [box(50, 50, 60, 60)]), false);
  assert.equal(index.update('b', [box(0, 0, 1, 1)]), false);
  assert.equal(index.remove('b'), false);
  assert.deepEqual(index.query(box(5, 5, 6, 6)), ['a']);
  assert.deepEqual(index.query(box(55, 55, 56, 56)), []);
  index.checkInvariants();
});

test('results keep insertion order across updates', () => {
  const index = new SpatialIndex({ cellSize: 10 });
  for (const id of [5, 3, 9, 1]) index.insert(id, [box(id, 0, 20, 5)]);
  index.update(5, [box(0, 0, 30, 30)]);
  assert.deepEqual(index.query(box(10, 1, 12, 2)), [5, 3, 9, 1]);
  index.remove(3);
  index.insert(3, [box(0, 0, 20, 5)]);
  assert.deepEqual(index.query(box(10, 1, 12, 2)), [5, 9, 1, 3]);
});

test('chunk boxes find a long stroke only where its ink is', () => {
  const points = [];
  for (let i = 0; i <= 64; i++) points.push([i * 10, 0]);
  for (let i = 1; i <= 64; i++) points.push([640, i * 10]);
  const curve = smoothCurve(points);
  const index = new SpatialIndex();
  index.insert(1, chunkBounds(curve, 16));
  index.insert(2, [curveBounds(curve)]);
  assert.deepEqual(index.query(box(100, 400, 110, 410)), [2]);
  assert.deepEqual(index.query(box(100, -2, 110, 2)), [1, 2]);
});

test('hostile boxes never throw and never match', () => {
  const index = new SpatialIndex({ cellSize: NaN });
  index.insert(1, [box(NaN, 0, 1, 1)]);
  index.insert(2, [box(-Infinity, -Infinity, Infinity, Infinity)]);
  index.insert(3, [box(-1e300, -1e300, 1e300, 1e300)]);
  index.insert(4, [box(10, 10, 0, 0)]);
  index.insert(5, []);
  index.insert(6, [box(1, 1, 2, 2)]);
  index.checkInvariants();
  assert.deepEqual(index.query(box(0, 0, 5, 5)), [2, 3, 6]);
  assert.deepEqual(index.query(box(NaN, 0, 5, 5)), []);
  assert.deepEqual(index.query(box(1e20, 1e20, 1e21, 1e21)), [2, 3]);
  for (let id = 1; id <= 6; id++) assert.equal(index.remove(id), true);
  index.checkInvariants();
  assert.equal(index.count, 0);
});

test('erasing through the index on a large board finds exactly what a full scan finds', () => {
  const value = seed();
  console.log(`board seed=${value}`);
  const random = new Random(value);
  const index = new SpatialIndex();
  const curves = [];
  for (let id = 0; id < 2000; id++) {
    const curve = smoothCurve(random.stroke(random.int(1, 60), [random.uniform(0, 4000), random.uniform(0, 4000)]));
    curves.push(curve);
    index.insert(id, chunkBounds(curve));
  }
  for (let move = 0; move < 50; move++) {
    const path = random.stroke(random.int(1, 5), [random.uniform(0, 4000), random.uniform(0, 4000)], [2, 30]);
    const swept = sweptPath(path, random.coordinate(2, 30));
    const viaIndex = new Map(index.query(swept.reach).map((id) => [id, cutCurve(curves[id], swept)]));
    curves.forEach((curve, id) => {
      const cuts = cutCurve(curve, swept);
      if (cuts.length > 0) assert.deepEqual(viaIndex.get(id), cuts, `seed ${value} move ${move} stroke ${id}`);
    });
  }
});
