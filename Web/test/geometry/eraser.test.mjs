// The partial eraser against a brute-force model, plus the cases Swift's PartialEraserTests pin down.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, seed } from './support.mjs';
import { smoothCurve, curvePoint, endParameter } from '../../js/geometry/smooth-curve.js';
import { eraseIntervals, cutCurve } from '../../js/geometry/eraser.js';
import { sweptPath } from '../../js/geometry/eraser-path.js';

/** Distance from `point` to the polyline `path`, written independently of the library. */
function referenceDistance(point, path) {
  if (path.length === 1) return Math.hypot(point[0] - path[0][0], point[1] - path[0][1]);
  let best = Infinity;
  for (let i = 1; i < path.length; i++) {
    const [ax, ay] = path[i - 1];
    const [bx, by] = path[i];
    const lengthSquared = (bx - ax) ** 2 + (by - ay) ** 2;
    const projection = ((point[0] - ax) * (bx - ax) + (point[1] - ay) * (by - ay)) / lengthSquared;
    const t = lengthSquared > 0 ? Math.min(Math.max(projection, 0), 1) : 0;
    best = Math.min(best, Math.hypot(point[0] - (ax + (bx - ax) * t), point[1] - (ay + (by - ay) * t)));
  }
  return best;
}

/** Every problem found comparing `cuts` with the curve sampled every 1/1000 parameter (Swift's EraserReference). */
function mismatches(cuts, curve, path, radius, slack = 0.1) {
  const problems = [];
  const end = endParameter(curve);
  for (let i = 1; i < cuts.length; i++) {
    if (!(cuts[i - 1][1] < cuts[i][0])) problems.push(`cuts ${cuts[i - 1]} and ${cuts[i]} are not sorted and apart`);
  }
  for (const cut of cuts) {
    if (!(cut[0] < cut[1] && cut[0] >= 0 && cut[1] <= Math.max(end, 1))) problems.push(`cut ${cut} is empty or out`);
    for (const boundary of cut) {
      if (boundary > 0 && boundary < end) {
        const gap = referenceDistance(curvePoint(curve, boundary), path) - radius;
        if (Math.abs(gap) > slack) problems.push(`end ${boundary} is ${gap} px from the edge`);
      }
    }
  }
  const steps = Math.round(end * 1000);
  for (let step = 0; step <= steps && problems.length <= 5; step++) {
    const parameter = step / 1000;
    const d = referenceDistance(curvePoint(curve, parameter), path);
    const covered = cuts.some((c) => (c[0] <= parameter && parameter < c[1]) || (c[1] === end && parameter === end));
    if (covered && d > radius + slack) problems.push(`cut parameter ${parameter} is ${d - radius} px outside`);
    else if (!covered && d <= radius - slack) problems.push(`kept parameter ${parameter} is ${radius - d} px inside`);
  }
  return problems;
}

const line = (count, step = 10) => Array.from({ length: count }, (_, i) => [i * step, 0]);

test('cuts match dense sampling on random strokes and paths', () => {
  const value = seed();
  console.log(`eraser seed=${value}`);
  const random = new Random(value);
  let cutCount = 0;
  for (let round = 0; round < 400; round++) {
    const points = random.stroke(random.int(1, 16));
    const curve = smoothCurve(points);
    const radius = random.coordinate(0.5, 25);
    const anchor = points[random.int(0, points.length - 1)];
    const path = random.stroke(random.int(1, 6), [anchor[0] - 25, anchor[1] - 25], [1, 30]);
    const cuts = eraseIntervals(curve, path, radius);
    cutCount += cuts.length;
    if (points.length === 1) {
      const touched = referenceDistance(points[0], path) <= radius;
      assert.deepEqual(cuts, touched ? [[0, 1]] : [], `seed ${value} round ${round}`);
      continue;
    }
    const problems = mismatches(cuts, curve, path, radius);
    assert.deepEqual(problems, [], `seed ${value} round ${round}: ${JSON.stringify({ points, path, radius })}`);
  }
  assert.ok(cutCount > 50, 'the random cases do cut');
});

test('a drag across a straight stroke cuts the diameter', () => {
  const cuts = eraseIntervals(smoothCurve(line(11)), [[50, -20], [50, 20]], 5);
  assert.equal(cuts.length, 1);
  assert.ok(Math.abs(cuts[0][0] - 4.5) < 1e-9 && Math.abs(cuts[0][1] - 5.5) < 1e-9);
});

test('a tap on an end cuts to the end', () => {
  const curve = smoothCurve(line(5));
  const cuts = eraseIntervals(curve, [[40, 0]], 5);
  assert.ok(cuts.length === 1 && Math.abs(cuts[0][0] - 3.5) < 1e-9 && cuts[0][1] === 4);
  const start = eraseIntervals(curve, [[-3, 0]], 5);
  assert.ok(start.length === 1 && start[0][0] === 0 && Math.abs(start[0][1] - 0.2) < 1e-9);
});

test('an eraser covering everything cuts the whole stroke; a zigzag cuts twice', () => {
  assert.deepEqual(eraseIntervals(smoothCurve([[0, 0], [5, 5], [10, 0]]), [[5, 0]], 100), [[0, 2]]);
  const curve = smoothCurve(line(21));
  const path = [[20, -30], [20, 30], [100, 30], [100, -30]];
  const cuts = eraseIntervals(curve, path, 3);
  assert.equal(cuts.length, 2);
  assert.deepEqual(mismatches(cuts, curve, path, 3), []);
});

test('an arc grazing the eraser edge stays accurate', () => {
  const arc = smoothCurve(Array.from({ length: 25 }, (_, i) => [50 + Math.cos(i / 8) * 20, 50 + Math.sin(i / 8) * 20]));
  for (const radius of [19.999, 20, 20.001, 20.05, 19.95]) {
    assert.deepEqual(mismatches(eraseIntervals(arc, [[50, 50]], radius), arc, [[50, 50]], radius), [], `r ${radius}`);
  }
});

test('a dot is cut whole when touched', () => {
  const dot = smoothCurve([[10, 10]]);
  assert.deepEqual(eraseIntervals(dot, [[11, 11]], 2), [[0, 1]]);
  assert.deepEqual(eraseIntervals(dot, [[20, 0], [20, 20]], 2), []);
  assert.deepEqual(eraseIntervals(dot, [[0, 11], [20, 11]], 2), [[0, 1]]);
});

test('repeated points in stroke and path are fine', () => {
  const curve = smoothCurve([[0, 0], [0, 0], [10, 0], [10, 0], [20, 0]]);
  const path = [[10, 1], [10, 1], [10, 1]];
  const cuts = eraseIntervals(curve, path, 2);
  assert.deepEqual(mismatches(cuts, curve, path, 2), []);
  assert.ok(cuts.length === 1 && cuts[0][0] < 2 && cuts[0][1] > 3);
  assert.deepEqual(eraseIntervals(smoothCurve([[3, 3], [3, 3], [3, 3]]), [[3, 3.5]], 1), [[0, 2]]);
});

test('hostile input cuts nothing and never throws', () => {
  const curve = smoothCurve([[0, 0], [10, 0], [20, 5]]);
  const path = [[10, 0]];
  assert.deepEqual(eraseIntervals(curve, path, NaN), []);
  assert.deepEqual(eraseIntervals(curve, path, Infinity), []);
  assert.deepEqual(eraseIntervals(curve, path, -1), []);
  assert.deepEqual(eraseIntervals(curve, [], 3), []);
  assert.deepEqual(eraseIntervals(curve, [[NaN, 0], [10, 0]], 3), []);
  assert.deepEqual(eraseIntervals(curve, [[Infinity, 0]], 3), []);
  assert.deepEqual(eraseIntervals(smoothCurve([]), path, 3), []);
  assert.deepEqual(cutCurve(curve, null), []);
  eraseIntervals(smoothCurve([[0, 0], [10, 0], [NaN, 5], [30, 0], [40, 0]]), path, 3);
  const huge = smoothCurve([[-1e308, 0], [1e308, 1e308], [0, -1e308]]);
  eraseIntervals(huge, [[1e308, -1e308], [-1e308, 0]], 1e300);
  eraseIntervals(huge, [[0, 0]], 3);
});

test('one swept path serves many strokes with the same answers', () => {
  const swept = sweptPath([[0, 5], [100, 5]], 6);
  const strokes = [line(11), line(11, 5), [[50, -10], [50, 20]]];
  for (const points of strokes) {
    const curve = smoothCurve(points);
    assert.deepEqual(cutCurve(curve, swept), eraseIntervals(curve, [[0, 5], [100, 5]], 6));
  }
});
