// The stroke eraser's hit test (ported from Swift's StrokeEraserTests).
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, seed } from './support.mjs';
import { smoothCurve, endParameter } from '../../js/geometry/smooth-curve.js';
import { sweptPath } from '../../js/geometry/eraser-path.js';
import { strokeHit } from '../../js/geometry/hit-test.js';
import { eraseIntervals } from '../../js/geometry/eraser.js';
import { gaps } from '../../js/geometry/intervals.js';

const line = smoothCurve(Array.from({ length: 11 }, (_, i) => [i * 10, 0]));
const hits = (curve, radius, width, path, visible = null) => strokeHit(curve, width, sweptPath(path, radius), visible);

test('touching the painted width counts', () => {
  assert.equal(hits(line, 3, 1, [[50, 7]]), false);
  assert.equal(hits(line, 3, 8, [[50, 7]]), true);
  assert.equal(hits(line, 3, 0, [[50, 3]]), true);
});

test('erased parts are not hit', () => {
  const path = [[20, -10], [20, 10]];
  assert.equal(hits(line, 2, 2, path), true);
  const visible = gaps([[1.5, 2.5]], 0, endParameter(line));
  assert.equal(hits(line, 2, 2, path, visible), false);
  assert.equal(hits(line, 2, 2, path, [[2.2, 2.4]]), true);
  assert.equal(hits(line, 2, 2, path, []), false);
});

test('agrees with the partial eraser on random strokes', () => {
  const value = seed();
  console.log(`hit test seed=${value}`);
  const random = new Random(value);
  let hitCount = 0;
  for (let round = 0; round < 300; round++) {
    const curve = smoothCurve(random.stroke(random.int(1, 12)));
    const path = random.stroke(random.int(1, 4), [80, 80], [5, 40]);
    const radius = random.coordinate(1, 10);
    const width = random.coordinate(0, 6);
    const cuts = eraseIntervals(curve, path, radius + width / 2);
    const end = endParameter(curve);
    const visible = [[0, end / 3], [end * 0.6, 1e9]];
    const visibleCuts = cuts.filter((cut) => visible.some((v) => v[0] < cut[1] && cut[0] < v[1]));
    const hit = hits(curve, radius, width, path);
    assert.equal(hit, cuts.length > 0, `seed ${value} round ${round}`);
    if (curve.segmentCount > 0) {
      assert.equal(hits(curve, radius, width, path, visible), visibleCuts.length > 0, `seed ${value} round ${round}`);
    }
    if (hit) hitCount += 1;
  }
  assert.ok(hitCount > 20 && hitCount < 280, `${hitCount} of 300 hit`);
});

test('dots and hostile input', () => {
  const dot = smoothCurve([[5, 5]]);
  assert.equal(hits(dot, 1, 4, [[8, 5]]), true);
  assert.equal(hits(dot, 1, 4, [[8, 5]], []), false);
  assert.equal(hits(dot, 1, NaN, [[5, 5]]), false);
  assert.equal(hits(line, Infinity, 1, [[5, 5]]), false);
  assert.equal(hits(line, 1, 1, []), false);
  assert.equal(hits(line, 1, 1, [[5, 0]], [[NaN, 3]]), false);
  assert.equal(hits(smoothCurve([]), 1, 1, [[5, 0]]), false);
});
