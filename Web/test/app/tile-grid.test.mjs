// Tile levels and placement (js/app/tile-grid.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TILE_PIXELS, levelFor, tileDestination, tileRange, tileRect, tileSpan, visibleTiles } from '../../js/app/tile-grid.js';
import { Viewport } from '../../js/app/viewport.js';

test('the level is the first power of two at or above the pixel density', () => {
  assert.equal(levelFor(1), 0);
  assert.equal(levelFor(2), 1);
  assert.equal(levelFor(1.01), 1);
  assert.equal(levelFor(0.5), -1);
  assert.equal(levelFor(0.51), 0);
  assert.equal(levelFor(1 / 64), -6);
  for (let scale = 0.02; scale < 40; scale *= 1.13) {
    const level = levelFor(scale);
    assert.ok(2 ** level >= scale * (1 - 1e-9) && 2 ** (level - 1) < scale, `scale ${scale}`);
  }
});

test('tiles cover the board without gaps: a rectangle ending on an edge stays in its tile', () => {
  assert.equal(tileSpan(0), TILE_PIXELS);
  assert.equal(tileSpan(2), TILE_PIXELS / 4);
  assert.deepEqual(tileRect(1, -1, 2), { minX: -256, minY: 512, maxX: 0, maxY: 768 });
  assert.deepEqual(tileRange({ minX: 0, minY: 0, maxX: 512, maxY: 512 }, 0), { minI: 0, minJ: 0, maxI: 0, maxJ: 0 });
  assert.deepEqual(tileRange({ minX: -1, minY: 0, maxX: 513, maxY: 10 }, 0), { minI: -1, minJ: 0, maxI: 1, maxJ: 0 });
});

test('visible tiles cover the view, nearest the centre first', () => {
  const view = new Viewport({ originX: 100, originY: -50, scale: 1, width: 1440, height: 900 });
  const { level, tiles, range } = visibleTiles(view, 1);
  assert.equal(level, 0);
  assert.deepEqual(range, { minI: 0, minJ: -1, maxI: 3, maxJ: 1 });
  assert.equal(tiles.length, 12);
  const first = tileRect(level, tiles[0].i, tiles[0].j);
  assert.ok(first.minX <= 100 + 720 && 100 + 720 <= first.maxX + TILE_PIXELS, 'a central tile first');
  assert.equal(visibleTiles(view, 2).level, 1, 'a denser screen takes finer tiles');
});

test('neighbouring tiles share their screen edges exactly', () => {
  for (const scale of [1, 0.77, 1.5, 3.3]) {
    const view = new Viewport({ originX: 17.3, originY: -4.9, scale, width: 800, height: 600 });
    const level = levelFor(scale);
    for (let i = -1; i < 3; i++) {
      const a = tileDestination(view, 1, level, i, 0);
      const b = tileDestination(view, 1, level, i + 1, 0);
      const c = tileDestination(view, 1, level, i, 1);
      assert.equal(a.x + a.width, b.x, `scale ${scale}: no seam or overlap across`);
      assert.equal(a.y + a.height, c.y, `scale ${scale}: none down`);
      assert.ok(a.width <= TILE_PIXELS + 1 && a.width >= TILE_PIXELS / 2 - 1, 'never blown up, at most halved');
    }
  }
});
