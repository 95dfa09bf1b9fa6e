// The recogniser's building blocks and tidy shapes (ported from Swift's ShapeRecognizerTests).
import test from 'node:test';
import assert from 'node:assert/strict';
import { recognizeShape } from '../../js/geometry/recognizer.js';
import { shapePolyline, ELLIPSE_SAMPLE_COUNT } from '../../js/geometry/shape-polyline.js';
import { resampled } from '../../js/geometry/polyline.js';
import { lineFit } from '../../js/geometry/line-fit.js';
import { closure, isCrossing } from '../../js/geometry/closure.js';
import { makeLoop } from '../../js/geometry/loop.js';
import { ellipseFit } from '../../js/geometry/ellipse-fit.js';
import { arrowParts } from '../../js/geometry/recognize-arrow.js';
import { DEFAULT_CONFIGURATION } from '../../js/geometry/recognizer-config.js';
import { radians } from '../../js/geometry/vector.js';

/** `corners` joined by straight runs of `steps` points each. */
function polyline(corners, steps = 12) {
  const points = [];
  for (let i = 1; i < corners.length; i++) {
    const [ax, ay] = corners[i - 1];
    const [bx, by] = corners[i];
    for (let s = 0; s < steps; s++) points.push([ax + (bx - ax) * (s / steps), ay + (by - ay) * (s / steps)]);
  }
  return [...points, corners[corners.length - 1]];
}

function ellipse(center, radiusX, radiusY, rotation, count = 60) {
  return Array.from({ length: count + 1 }, (_, i) => {
    const angle = (2 * Math.PI * i) / count;
    const u = radiusX * Math.cos(angle);
    const v = radiusY * Math.sin(angle);
    const [c, s] = [Math.cos(rotation), Math.sin(rotation)];
    return [center[0] + u * c - v * s, center[1] + u * s + v * c];
  });
}

const close = (a, b, tolerance) => Math.hypot(a[0] - b[0], a[1] - b[1]) <= tolerance;

test('resampling spaces points evenly and keeps the ends', () => {
  assert.deepEqual(resampled([[0, 0], [10, 0], [10, 30]], 5), [[0, 0], [10, 0], [10, 10], [10, 20], [10, 30]]);
  const loop = resampled([[0, 0], [10, 0], [10, 10], [0, 10]], 8, true);
  assert.equal(loop.length, 8);
  assert.ok(close(loop[2], [10, 0], 1e-9) && close(loop[7], [0, 5], 1e-9));
});

test('the line fit finds the main direction', () => {
  const fit = lineFit([[0, 0], [1, 1.01], [2, 1.99], [3, 3]]);
  assert.ok(Math.abs(Math.abs(fit.direction[0]) - Math.sqrt(0.5)) < 0.01);
  assert.ok(Math.abs(Math.hypot(...fit.direction) - 1) < 1e-12);
  assert.equal(lineFit([[1, 1], [1, 1]]), null);
  const vertical = lineFit([[5, 0], [5, 10]]);
  assert.ok(vertical.direction[0] === 0 && Math.abs(vertical.direction[1]) === 1);
});

test('closure cuts an overshoot but not a crossing', () => {
  const square = resampled(polyline([[0, 0], [0, 100], [100, 100], [100, 0], [0, 0], [0, 20]]), 64);
  const found = closure(square, 0.15, 0.5);
  assert.ok(found.opening < 0.05);
  assert.equal(isCrossing(found, square, 0.03, radians(45)), false);
  const fish = resampled(polyline([[0, 0], [100, 100], [100, 0], [0, 100]]), 64);
  assert.equal(isCrossing(closure(fish, 0.4, 0.5), fish, 0.03, radians(45)), true);
});

test('loops count corners and turn once around; a star turns twice', () => {
  const square = makeLoop(polyline([[0, 0], [0, 100], [100, 100], [100, 0], [0, 0]]), DEFAULT_CONFIGURATION);
  assert.equal(square.corners.length, 4);
  assert.ok(Math.abs(Math.abs(square.totalTurning) - 2 * Math.PI) < 0.01);
  const star = Array.from({ length: 6 }, (_, i) => {
    const angle = -Math.PI / 2 + (i * 4 * Math.PI) / 5;
    return [50 * Math.cos(angle), 50 * Math.sin(angle)];
  });
  const starLoop = makeLoop(polyline(star), DEFAULT_CONFIGURATION);
  assert.ok(Math.abs(Math.abs(starLoop.totalTurning) - 4 * Math.PI) < 0.01);
});

test('the ellipse fit recovers centre, radii and rotation', () => {
  const points = ellipse([40, -20], 80, 30, 0.3);
  const fit = ellipseFit(makeLoop(points.slice(0, -1), DEFAULT_CONFIGURATION));
  assert.ok(close(fit.center, [40, -20], 0.5));
  assert.ok(Math.abs(fit.radiusX - 80) < 1 && Math.abs(fit.radiusY - 30) < 1);
  assert.ok(Math.abs(fit.rotation - 0.3) < 0.01);
  assert.ok(fit.error < 0.001);
});

test('tidy shapes get their exact geometry', () => {
  const line = recognizeShape(polyline([[10, 10], [110, 12]]));
  assert.equal(line.kind, 'line');
  assert.ok(line.points[0][1] === 11 && line.points[1][1] === 11, 'within 5° of horizontal snaps, about the middle');
  assert.ok(close(line.points[0], [10, 11], 0.05) && close(line.points[1], [110, 11], 0.05));
  const box = recognizeShape(polyline([[0, 0], [0, 60], [90, 60], [90, 0], [0, 0]]));
  assert.equal(box.kind, 'rectangle');
  [[0, 0], [0, 60], [90, 60], [90, 0]].forEach((corner, i) => assert.ok(close(box.points[i], corner, 1e-6)));
  const circle = recognizeShape(ellipse([5, 5], 40, 38, 0));
  assert.equal(circle.kind, 'ellipse');
  assert.ok(close(circle.center, [5, 5], 0.5) && circle.radiusX === circle.radiusY && circle.rotation === 0);
});

test('rectangles keep their rotation unless nearly aligned', () => {
  const angle = 0.4;
  const turn = ([x, y]) => [x * Math.cos(angle) - y * Math.sin(angle), x * Math.sin(angle) + y * Math.cos(angle)];
  const shape = recognizeShape(polyline([[0, 0], [0, 60], [90, 60], [90, 0], [0, 0]].map(turn)));
  assert.equal(shape.kind, 'rectangle');
  const [a, b, c] = shape.points;
  const side = [b[0] - a[0], b[1] - a[1]];
  const next = [c[0] - b[0], c[1] - b[1]];
  assert.ok(Math.abs(side[0] * next[0] + side[1] * next[1]) < 1e-6 * Math.hypot(...side) * Math.hypot(...next));
  assert.ok(Math.abs(Math.abs(Math.atan2(next[1], next[0])) - angle) < 0.01);
});

test('a square standing on a corner is a diamond', () => {
  const shape = recognizeShape(polyline([[50, 0], [0, 40], [50, 80], [100, 40], [50, 0]]));
  assert.equal(shape.kind, 'diamond');
  assert.ok(close(shape.points[0], [50, 0], 1e-6), 'starts where the stroke starts');
  assert.ok(shape.points[0][0] === shape.points[2][0] && shape.points[1][1] === shape.points[3][1]);
});

test('arrows are split into shaft and symmetric head', () => {
  const stroke = polyline([[0, 0], [100, 0], [75, -15], [100, 0], [75, 15]]);
  const shape = recognizeShape(stroke);
  assert.equal(shape.kind, 'arrow');
  assert.deepEqual(shape.tail, [0, 0]);
  assert.ok(shape.tip[1] === 0 && close(shape.tip, [100, 0], 1));
  assert.ok(close(shape.head[0], [75, -15], 1) && close(shape.head[1], [75, 15], 1));
  const barb = (p) => Math.hypot(p[0] - shape.tip[0], p[1] - shape.tip[1]);
  assert.ok(Math.abs(barb(shape.head[0]) - barb(shape.head[1])) < 1e-9, 'symmetric barbs');
  assert.deepEqual(shapePolyline(shape), [shape.tail, shape.tip, shape.head[0], shape.tip, shape.head[1]]);
  const parts = arrowParts(resampled(stroke, 64), 0.75);
  assert.ok(parts.headRadius < 0.3 && parts.barbReach > 0.14);
});

test('free strokes stay ink', () => {
  assert.deepEqual(recognizeShape([]), { kind: 'none' });
  assert.deepEqual(recognizeShape([[3, 3]]), { kind: 'none' });
  assert.deepEqual(recognizeShape([[3, 3], [3, 3], [3, 3]]), { kind: 'none' });
  assert.deepEqual(recognizeShape([[0, 0], [NaN, 1]]), { kind: 'none' });
  assert.equal(recognizeShape(polyline([[0, 0], [20, 40], [40, 0], [60, 40], [80, 0]])).kind, 'none');
  assert.equal(recognizeShape(polyline([[0, 50], [30, 100], [100, 0]])).kind, 'none');
});

test('polylines close where they start', () => {
  const triangle = { kind: 'triangle', points: [[0, 0], [10, 0], [5, 8]] };
  assert.deepEqual(shapePolyline(triangle), [[0, 0], [10, 0], [5, 8], [0, 0]]);
  const oval = shapePolyline({ kind: 'ellipse', center: [1, 2], radiusX: 3, radiusY: 4, rotation: 0 });
  assert.equal(oval.length, ELLIPSE_SAMPLE_COUNT);
  assert.deepEqual(oval[0], oval[oval.length - 1]);
  assert.deepEqual(oval[0], [4, 2]);
  assert.deepEqual(shapePolyline({ kind: 'line', points: [[0, 0], [5, 5]] }), [[0, 0], [5, 5]]);
  assert.deepEqual(shapePolyline({ kind: 'none' }), []);
});

test('configuration overrides are merged with the defaults', () => {
  const wobbly = polyline([[0, 0], [50, 6], [100, 0]]);
  assert.equal(recognizeShape(wobbly).kind, 'line');
  assert.equal(recognizeShape(wobbly, { lineMaxDeviation: 0.01 }).kind, 'none');
});
