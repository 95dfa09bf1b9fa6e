// The tile cache's bookkeeping (js/app/tile-cache.js), with canvases that record calls.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Scene } from '../../js/app/scene.js';
import { TileCache } from '../../js/app/tile-cache.js';
import { strokeId } from '../../js/model/ids.js';
import { FakeSession, add, line, recordingCanvas } from './support.mjs';

function setup({ maximumTiles = 96, clock = () => 0 } = {}) {
  const session = new FakeSession();
  const scene = new Scene(session.board);
  const painted = [];
  const cache = new TileCache({
    scene,
    createCanvas: recordingCanvas,
    maximumTiles,
    now: clock,
    paint: (ctx, strokes) => painted.push([...strokes].map((s) => s.id)),
  });
  return { session, scene, cache, painted };
}

test('a tile paints the strokes over it, bottom to top, then is complete', () => {
  const { scene, cache, painted, session } = setup();
  const a = strokeId(session.commit([add(line(3, { x: 10, y: 10 }))]).id, 0);
  const b = strokeId(session.commit([add(line(3, { x: 600, y: 10 }))]).id, 0);
  const c = strokeId(session.commit([add(line(3, { x: 20, y: 20 }))]).id, 0);
  scene.rebuild();
  const tile = cache.ensure(0, 0, 0);
  assert.equal(cache.work([tile], Infinity), false);
  assert.ok(tile.complete);
  assert.deepEqual(painted, [[a, c]]);
  assert.ok(!painted.flat().includes(b));
});

test('changes dirty only the complete tiles they meet; a half-painted tile starts over', () => {
  const { cache } = setup();
  const left = cache.ensure(0, 0, 0);
  const right = cache.ensure(0, 1, 0);
  cache.work([left], Infinity);
  right.job = ['x'];
  cache.invalidate({ minX: 100, minY: 100, maxX: 600, maxY: 120 });
  assert.deepEqual(left.dirty, [{ minX: 100, minY: 100, maxX: 600, maxY: 120 }]);
  assert.equal(right.job, null, 'restarted');
  const far = { minX: 5000, minY: 5000, maxX: 5001, maxY: 5001 };
  cache.invalidate(far);
  assert.equal(left.dirty.length, 1);
});

test('a repair clears and repaints only the dirty rectangle, in whole pixels', () => {
  const { cache, painted, session, scene } = setup();
  const a = strokeId(session.commit([add(line(3, { x: 10, y: 10 }))]).id, 0);
  session.commit([add(line(3, { x: 300, y: 300 }))]);
  scene.rebuild();
  const tile = cache.ensure(0, 0, 0);
  cache.work([tile], Infinity);
  painted.length = 0;
  cache.invalidate({ minX: 5.5, minY: 5.5, maxX: 40.2, maxY: 14 });
  cache.work([tile], Infinity);
  assert.deepEqual(painted, [[a]], 'only what reaches into the rectangle');
  const calls = tile.ctx.calls;
  assert.deepEqual(calls.find((call) => call[0] === 'clearRect' && call[1] !== 0), ['clearRect', 5, 5, 36, 9]);
  assert.equal(tile.dirty.length, 0);
  assert.equal(cache.stats.repairs, 1);
});

test('many dirty rectangles become their union', () => {
  const { cache } = setup();
  const tile = cache.ensure(0, 0, 0);
  cache.work([tile], Infinity);
  for (let i = 0; i < 9; i++) cache.invalidate({ minX: i * 10, minY: 0, maxX: i * 10 + 5, maxY: 5 });
  assert.deepEqual(tile.dirty, [{ minX: 0, minY: 0, maxX: 85, maxY: 5 }]);
});

test('strokes on top are painted straight onto complete tiles and appended to unfinished ones', () => {
  const { cache, painted, scene, session } = setup();
  const done = cache.ensure(0, 0, 0);
  cache.work([done], Infinity);
  const unfinished = cache.ensure(0, 1, 0);
  unfinished.job = [];
  const change = session.commit([add(line(60, { x: 400, y: 10 }))]);
  scene.update({ strokes: new Set([strokeId(change.id, 0)]), reordered: false, everything: false });
  const stroke = scene.stroke(strokeId(change.id, 0));
  cache.paintOnTop([stroke]);
  assert.deepEqual(painted, [[stroke.id]]);
  assert.deepEqual(unfinished.job, [stroke.id]);
  assert.equal(done.dirty.length, 0, 'no repaint needed');
});

test('painting stops at the deadline and resumes in the next frame', () => {
  let now = 0;
  const { cache, session, scene } = setup({ clock: () => now });
  for (let i = 0; i < 200; i++) session.commit([add(line(2, { x: i, y: i }))]);
  scene.rebuild();
  const tile = cache.ensure(0, 0, 0);
  const original = cache.paint;
  cache.paint = (ctx, strokes) => {
    original(ctx, strokes);
    now += 1;
  };
  assert.equal(cache.work([tile], 1), true, 'out of time after a chunk');
  assert.ok(!tile.complete);
  assert.equal(tile.next, 32);
  assert.equal(cache.work([tile], Infinity), false);
  assert.ok(tile.complete);
});

test('the least recently used tiles off screen are dropped past the budget', () => {
  const { cache } = setup({ maximumTiles: 3 });
  const tiles = [0, 1, 2, 3, 4].map((i) => cache.ensure(0, i, 0));
  cache.ensure(0, 0, 0);
  cache.evict(new Set([tiles[1].key]));
  assert.equal(cache.size, 3);
  assert.ok(cache.get(0, 0, 0) && cache.get(0, 1, 0) && cache.get(0, 4, 0), 'recent and visible tiles stay');
  assert.equal(cache.get(0, 2, 0), undefined);
});

test('invalidating everything starts every tile over', () => {
  const { cache } = setup();
  const tile = cache.ensure(0, 0, 0);
  cache.work([tile], Infinity);
  cache.invalidateAll();
  assert.ok(!tile.complete);
  assert.equal(tile.job, null);
});
