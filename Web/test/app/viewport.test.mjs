// The view's math (js/app/viewport.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAXIMUM_SCALE, MINIMUM_SCALE, Viewport, clampScale, pinchStep, wheelZoomFactor } from '../../js/app/viewport.js';

const close = (a, b, message) => assert.ok(Math.abs(a - b) < 1e-9, `${message ?? ''} ${a} ≉ ${b}`);

test('screen and board coordinates are inverses', () => {
  const view = new Viewport({ originX: -120.5, originY: 33, scale: 1.75, width: 800, height: 600 });
  for (const [x, y] of [[0, 0], [100, -40], [-1e6, 3e5]]) {
    const [sx, sy] = view.toScreen(x, y);
    const [bx, by] = view.toBoard(sx, sy);
    close(bx, x);
    close(by, y);
  }
  assert.deepEqual(view.visibleRect(), { minX: -120.5, minY: 33, maxX: -120.5 + 800 / 1.75, maxY: 33 + 600 / 1.75 });
});

test('zooming keeps the point under the cursor in place, within the limits', () => {
  const view = new Viewport({ width: 800, height: 600 });
  const before = view.toBoard(200, 150);
  view.zoomAt(2.5, 200, 150);
  assert.equal(view.scale, 2.5);
  const after = view.toBoard(200, 150);
  close(after[0], before[0]);
  close(after[1], before[1]);
  view.zoomAt(1e9, 10, 10);
  assert.equal(view.scale, MAXIMUM_SCALE);
  view.zoomAt(1e-12, 10, 10);
  assert.equal(view.scale, MINIMUM_SCALE);
  const version = view.version;
  view.zoomAt(0.5, 10, 10);
  assert.equal(view.version, version, 'at the limit nothing moves');
  view.zoomAt(NaN, 0, 0);
  view.zoomAt(-1, 0, 0);
  assert.equal(view.scale, MINIMUM_SCALE, 'nonsense factors are ignored');
});

test('panning moves the content with the hand', () => {
  const view = new Viewport({ scale: 2, width: 800, height: 600 });
  const [sx, sy] = view.toScreen(50, 50);
  view.panBy(30, -10);
  const [tx, ty] = view.toScreen(50, 50);
  close(tx - sx, 30);
  close(ty - sy, -10);
  const version = view.version;
  view.panBy(0, 0);
  view.panBy(Infinity, 0);
  assert.equal(view.version, version);
});

test('fit shows a rectangle whole and centred, never above 100 %', () => {
  const view = new Viewport({ width: 1000, height: 500 });
  view.fit({ minX: 0, minY: 0, maxX: 4000, maxY: 1000 }, 0);
  close(view.scale, 0.25);
  const [cx, cy] = view.toScreen(2000, 500);
  close(cx, 500);
  close(cy, 250);
  view.fit({ minX: 10, minY: 10, maxX: 20, maxY: 20 });
  assert.equal(view.scale, 1);
});

test('scales are clamped and sanitised', () => {
  assert.equal(clampScale(0), 1);
  assert.equal(clampScale(NaN), 1);
  assert.equal(clampScale(Infinity), 1);
  assert.equal(clampScale(1000), MAXIMUM_SCALE);
  assert.equal(clampScale(2), 2);
});

test('a wheel notch zooms about 10 %, the same in and out', () => {
  close(wheelZoomFactor(100) * wheelZoomFactor(-100), 1);
  assert.ok(wheelZoomFactor(100) < 1 && wheelZoomFactor(100) > 0.85);
  assert.equal(wheelZoomFactor(3, 1), wheelZoomFactor(48, 0), 'line mode counts 16 px a line');
  assert.equal(wheelZoomFactor(10_000), wheelZoomFactor(200), 'a huge delta is one big step, not a jump');
});

test('a pinch pans by its midpoint and zooms by its spread', () => {
  const step = pinchStep(
    [[100, 100], [200, 100]],
    [[90, 120], [290, 120]],
  );
  assert.deepEqual(step, { dx: 40, dy: 20, factor: 2, centre: [190, 120] });
  assert.equal(pinchStep([[5, 5], [5, 5]], [[1, 1], [9, 9]]).factor, 1, 'fingers on one spot do not zoom');
});
