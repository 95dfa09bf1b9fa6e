// Conformance/eraser.json: the Swift engine's smoothing and partial-eraser results, which the browser must
// reproduce within the file's tolerance (1e-6).
import test from 'node:test';
import assert from 'node:assert/strict';
import { conformance, near } from './support.mjs';
import { smoothCurve, curveSegment, curvePoint } from '../../js/geometry/smooth-curve.js';
import { eraseIntervals } from '../../js/geometry/eraser.js';

const vectors = conformance('eraser.json');
const TOLERANCE = 1e-6 * 1.01; // as Swift's EraserVectors.differences: values are rounded to 1e-6

test('eraser.json is version 1 with enough cases', () => {
  assert.equal(vectors.version, 1);
  assert.ok(vectors.smoothing.length >= 6);
  assert.ok(vectors.eraser.length >= 30);
});

test('smoothing: Bézier control points and curve points match Swift', async (t) => {
  for (const item of vectors.smoothing) {
    await t.test(item.name, () => {
      const curve = smoothCurve(item.points);
      assert.equal(curve.segmentCount, item.segments.length);
      item.segments.forEach((expected, index) => {
        const actual = curveSegment(curve, index);
        expected.forEach((value, k) => {
          assert.ok(near(actual[k], value, TOLERANCE), `segment ${index}[${k}]: ${actual[k]} vs ${value}`);
        });
      });
      item.parameters.forEach((parameter, index) => {
        const [x, y] = curvePoint(curve, parameter);
        const [ex, ey] = item.expected[index];
        assert.ok(near(x, ex, TOLERANCE) && near(y, ey, TOLERANCE), `t=${parameter}: (${x}, ${y}) vs (${ex}, ${ey})`);
      });
    });
  }
});

test('partial eraser: cut intervals match Swift', async (t) => {
  for (const item of vectors.eraser) {
    await t.test(item.name, () => {
      const cuts = eraseIntervals(smoothCurve(item.points), item.path, item.radius);
      assert.equal(cuts.length, item.cuts.length, `${JSON.stringify(cuts)} vs ${JSON.stringify(item.cuts)}`);
      cuts.forEach((cut, index) => {
        const expected = item.cuts[index];
        assert.ok(
          near(cut[0], expected[0], TOLERANCE) && near(cut[1], expected[1], TOLERANCE),
          `cut ${index}: ${JSON.stringify(cut)} vs ${JSON.stringify(expected)}`,
        );
      });
    });
  }
});
