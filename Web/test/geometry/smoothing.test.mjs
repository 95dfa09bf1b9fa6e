// The smooth curve, its Bézier pieces and its flattening (ported from Swift's SmoothCurveTests).
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, seed } from './support.mjs';
import { smoothCurve, curvePoint, curveSegment, curveBounds, endParameter } from '../../js/geometry/smooth-curve.js';
import { curveBeziers, visibleRanges } from '../../js/geometry/curve-pieces.js';
import { flattenCurve } from '../../js/geometry/flatten.js';
import { chunkBounds, pointChunkBounds } from '../../js/geometry/chunk-bounds.js';
import { bezierPoint, splitBezier, bezierPiece } from '../../js/geometry/bezier.js';

const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

test('the curve passes through every sample at integer parameters', () => {
  const value = seed();
  console.log(`smoothing seed=${value}`);
  const random = new Random(value);
  for (let round = 0; round < 200; round++) {
    const points = random.stroke(random.int(1, 40));
    const curve = smoothCurve(points);
    // The same point: -0 and 0 are one coordinate (deepEqual tells them apart, as Object.is does).
    const plain = (p) => p.map((v) => v + 0);
    points.forEach((point, index) => assert.deepEqual(plain(curvePoint(curve, index)), plain(point), `seed ${value}`));
    assert.equal(curve.segmentCount, Math.max(points.length - 1, 0));
  }
});

test('segments join with matching tangents', () => {
  const curve = smoothCurve([[0, 0], [10, 5], [20, 0], [25, 10]]);
  for (let index = 1; index < curve.segmentCount; index++) {
    const before = curveSegment(curve, index - 1);
    const after = curveSegment(curve, index);
    const incoming = [before[6] - before[4], before[7] - before[5]];
    const outgoing = [after[2] - after[0], after[3] - after[1]];
    const cross = incoming[0] * outgoing[1] - incoming[1] * outgoing[0];
    assert.ok(Math.abs(cross) < 1e-9 * Math.hypot(...incoming) * Math.hypot(...outgoing));
    assert.ok(incoming[0] * outgoing[0] + incoming[1] * outgoing[1] > 0);
  }
});

test('Béziers of an interval trace the curve between its ends, bit for bit at the ends', () => {
  const value = seed();
  console.log(`pieces seed=${value}`);
  const random = new Random(value);
  for (let round = 0; round < 200; round++) {
    const curve = smoothCurve(random.stroke(random.int(2, 30)));
    const end = endParameter(curve);
    const a = random.uniform(-0.5, end);
    const b = random.uniform(a, end + 0.5);
    const pieces = curveBeziers(curve, [a, b]);
    const lower = Math.max(a, 0);
    const upper = Math.min(b, end);
    if (!(lower < upper)) {
      assert.equal(pieces.length, 0);
      continue;
    }
    assert.deepEqual(pieces[0].slice(0, 2), curvePoint(curve, lower), `seed ${value}`);
    assert.deepEqual(pieces[pieces.length - 1].slice(6, 8), curvePoint(curve, upper), `seed ${value}`);
    let cursor = lower;
    for (const piece of pieces) {
      const pieceEnd = Math.min(Math.floor(cursor + 1), upper);
      for (let step = 0; step <= 8; step++) {
        const f = step / 8;
        const expected = curvePoint(curve, cursor + (pieceEnd - cursor) * f);
        assert.ok(distance(bezierPoint(piece, f), expected) < 1e-9, `seed ${value} [${a}, ${b})`);
      }
      cursor = pieceEnd;
    }
    assert.equal(cursor, upper);
  }
});

test('split halves and pieces trace the same curve', () => {
  const bezier = [0, 0, 10, 30, 40, -20, 50, 5];
  const [left, right] = splitBezier(bezier, 0.3);
  assert.deepEqual(left.slice(0, 2), [0, 0]);
  assert.deepEqual(right.slice(6), [50, 5]);
  assert.deepEqual(left.slice(6), right.slice(0, 2));
  const middle = bezierPiece(bezier, 0.2, 0.7);
  for (let step = 0; step <= 10; step++) {
    const t = step / 10;
    assert.ok(distance(bezierPoint(left, t), bezierPoint(bezier, 0.3 * t)) < 1e-12);
    assert.ok(distance(bezierPoint(right, t), bezierPoint(bezier, 0.3 + 0.7 * t)) < 1e-12);
    assert.ok(distance(bezierPoint(middle, t), bezierPoint(bezier, 0.2 + 0.5 * t)) < 1e-12);
  }
});

test('flattening stays within tolerance and keeps every sample', () => {
  const points = [[0, 0], [30, 40], [60, -10], [61, -10], [100, 50]];
  const curve = smoothCurve(points);
  const flat = flattenCurve(curve, 0.1);
  points.forEach((point, index) => {
    assert.ok(flat.some((s) => s.parameter === index && s.point[0] === point[0] && s.point[1] === point[1]));
  });
  for (let i = 1; i < flat.length; i++) {
    const a = flat[i - 1];
    const b = flat[i];
    assert.ok(a.parameter < b.parameter);
    const middle = curvePoint(curve, (a.parameter + b.parameter) / 2);
    const chord = [b.point[0] - a.point[0], b.point[1] - a.point[1]];
    const offset = Math.abs(chord[0] * (middle[1] - a.point[1]) - chord[1] * (middle[0] - a.point[0]));
    assert.ok(offset / Math.max(Math.hypot(...chord), 1e-12) <= 0.1 + 1e-9);
  }
  const part = flattenCurve(curve, 0.1, [0.5, 2.25]);
  assert.equal(part[0].parameter, 0.5);
  assert.equal(part[part.length - 1].parameter, 2.25);
});

test('repeated samples give still segments, not NaN', () => {
  const curve = smoothCurve([[5, 5], [5, 5], [5, 5], [9, 5], [9, 5]]);
  assert.ok(curve.segments.every(Number.isFinite));
  assert.deepEqual(curveSegment(curve, 0), [5, 5, 5, 5, 5, 5, 5, 5]);
  assert.equal(curvePoint(curve, 2.5)[1], 5);
});

test('dot and empty curves', () => {
  const dot = smoothCurve([[3, 4]]);
  assert.equal(endParameter(dot), 0);
  assert.equal(dot.segmentCount, 0);
  assert.deepEqual(curvePoint(dot, 0), [3, 4]);
  assert.deepEqual(curvePoint(dot, 7), [3, 4]);
  assert.deepEqual(curveBeziers(dot, [0, 1]), [[3, 4, 3, 4, 3, 4, 3, 4]]);
  assert.deepEqual(curveBeziers(dot, [0.5, 1]), []);
  assert.deepEqual(flattenCurve(dot, 1).map((s) => s.point), [[3, 4]]);
  assert.deepEqual(curveBounds(dot), { minX: 3, minY: 4, maxX: 3, maxY: 4 });
  const empty = smoothCurve([]);
  assert.ok(Number.isNaN(curvePoint(empty, 0)[0]));
  assert.deepEqual(curveBeziers(empty, [0, 1]), []);
  assert.deepEqual(flattenCurve(empty, 1), []);
  assert.equal(curveBounds(empty), null);
  assert.deepEqual(chunkBounds(empty), []);
});

test('visible ranges split intervals at segment ends and drop empty or NaN ones', () => {
  const curve = smoothCurve([[0, 0], [10, 0], [20, 0], [30, 0]]);
  assert.deepEqual(visibleRanges(curve, [[0.5, 2.25], [2.5, 2.5], [NaN, 3], [-1, 0.25]]), [
    { index: 0, lower: 0.5, upper: 1 },
    { index: 1, lower: 0, upper: 1 },
    { index: 2, lower: 0, upper: 0.25 },
    { index: 0, lower: 0, upper: 0.25 },
  ]);
  assert.equal(visibleRanges(curve).length, 3);
});

test('chunk boxes hold the whole curve', () => {
  const points = [];
  for (let i = 0; i <= 64; i++) points.push([i * 10, 0]);
  for (let i = 1; i <= 64; i++) points.push([640, i * 10]);
  const curve = smoothCurve(points);
  const chunks = chunkBounds(curve, 16);
  assert.equal(chunks.length, 8);
  for (let t = 0; t <= endParameter(curve); t += 0.05) {
    const [x, y] = curvePoint(curve, t);
    assert.ok(chunks.some((b) => x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY), `t=${t}`);
  }
});

test('hostile input never throws', () => {
  const curves = [
    smoothCurve([[NaN, 0], [1, 1], [2, 2]]),
    smoothCurve([[Infinity, 0], [-Infinity, 1], [2, NaN]]),
    smoothCurve([[1e308, -1e308], [-1e308, 1e308], [0, 0]]),
  ];
  for (const curve of curves) {
    for (const t of [NaN, Infinity, -Infinity]) curvePoint(curve, t);
    curveBeziers(curve, [NaN, 1]);
    curveBeziers(curve, [-Infinity, Infinity]);
    flattenCurve(curve, NaN);
    flattenCurve(curve, 0);
    flattenCurve(curve, -1, [-Infinity, Infinity]);
    curveBounds(curve);
    chunkBounds(curve, 0);
  }
  assert.ok(Number.isNaN(curvePoint(smoothCurve([[0, 0], [1, 0]]), NaN)[0]));
});

test('boxes of the points, grown by two thirds of the longest segment, hold the control boxes of the curve', () => {
  const value = seed();
  console.log(`point chunk bounds seed=${value}`);
  const random = new Random(value);
  const contains = (outer, inner) =>
    outer.minX <= inner.minX + 1e-9 && outer.minY <= inner.minY + 1e-9 && outer.maxX >= inner.maxX - 1e-9 && outer.maxY >= inner.maxY - 1e-9;
  for (let round = 0; round < 500; round++) {
    // Pen-like strokes, and wild ones: spacing that jumps from a pixel to hundreds, sharp turns back.
    const points = round % 2 === 0 ? random.stroke(random.int(1, 80)) : Array.from({ length: random.int(1, 40) }, () => [random.uniform(-500, 500), random.uniform(-500, 500)]);
    const size = random.int(1, 20);
    const curve = smoothCurve(points);
    const exact = chunkBounds(curve, size);
    const { boxes, spacing } = pointChunkBounds(points, size);
    assert.equal(boxes.length, exact.length, `seed ${value}`);
    exact.forEach((box, index) => assert.ok(contains(boxes[index], box), `seed ${value} round ${round} chunk ${index}`));
    let total = 0;
    for (let i = 1; i < points.length; i++) total += distance(points[i], points[i - 1]);
    assert.ok(Math.abs(spacing - (points.length > 1 ? total / (points.length - 1) : 0)) < 1e-9, `seed ${value}`);
  }
  assert.deepEqual(pointChunkBounds([]), { boxes: [], spacing: 0 });
});
