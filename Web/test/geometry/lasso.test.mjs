// Lasso selection (ported from Swift's LassoTests).
import test from 'node:test';
import assert from 'node:assert/strict';
import { smoothCurve } from '../../js/geometry/smooth-curve.js';
import { lasso, lassoContains, lassoSelects } from '../../js/geometry/lasso.js';

const square = lasso([[0, 0], [100, 0], [100, 100], [0, 100]]);

test('a stroke wholly inside is selected and one outside is not', () => {
  assert.equal(lassoSelects(square, smoothCurve([[10, 10], [50, 60], [90, 20]])), true);
  assert.equal(lassoSelects(square, smoothCurve([[110, 10], [150, 60]])), false);
});

test('a stroke mostly inside is selected by default but not when all is asked for', () => {
  const stroke = smoothCurve([[5, 50], [50, 50], [105, 50]]); // 95 of 100 px inside
  assert.equal(lassoSelects(square, stroke), true);
  const strict = lasso(square.polygon, { minimumInsideFraction: 1 });
  assert.equal(lassoSelects(strict, stroke), false);
  assert.equal(lassoSelects(square, smoothCurve([[50, 50], [150, 50]])), false);
});

test('only visible pieces count', () => {
  const stroke = smoothCurve([[50, 50], [150, 50], [250, 50]]);
  assert.equal(lassoSelects(square, stroke), false);
  assert.equal(lassoSelects(square, stroke, [[0, 0.4]]), true);
  assert.equal(lassoSelects(square, stroke, []), false);
});

test('the winding rule keeps a double loop and both lobes of a figure eight inside', () => {
  const twice = lasso([[0, 0], [100, 0], [100, 100], [0, 100], [0, 0], [100, 0], [100, 100], [0, 100]]);
  assert.equal(lassoContains(twice, [50, 50]), true);
  const eight = lasso([[0, 0], [100, 100], [100, 0], [0, 100]]);
  assert.ok(lassoContains(eight, [10, 50]) && lassoContains(eight, [90, 50]) && !lassoContains(eight, [50, 10]));
});

test('dots and degenerate input', () => {
  assert.equal(lassoSelects(square, smoothCurve([[20, 20]])), true);
  assert.equal(lassoSelects(square, smoothCurve([[20, 20]]), []), false);
  assert.equal(lassoSelects(square, smoothCurve([[20, 20], [20, 20]])), true);
  assert.equal(lassoSelects(lasso([[0, 0], [10, 10]]), smoothCurve([[5, 5]])), false);
  assert.equal(lassoContains(lasso([[0, 0], [NaN, 10], [10, 0]]), [1, 1]), false);
  assert.equal(lassoSelects(square, smoothCurve([[NaN, 20], [30, 30]])), false);
  assert.equal(lassoSelects(square, smoothCurve([])), false);
});
