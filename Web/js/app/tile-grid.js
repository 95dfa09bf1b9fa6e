/**
 * The grid of cached tiles: at level k a tile is 512 × 512 device pixels holding a square of the board
 * painted at 2^k device pixels per board pixel. The level shown is the first at or above the screen's
 * pixel density, so a tile is at most halved when composited (sharp, never blown up).
 */

/** Device pixels per tile side. */
export const TILE_PIXELS = 512;

/**
 * The level for a view: the smallest k with 2^k ≥ device pixels per board pixel.
 * @param {number} pixelScale viewport scale × devicePixelRatio
 */
export function levelFor(pixelScale) {
  // The epsilon keeps an exact power of two (scale 1 at ratio 1) on its own level despite rounding in log2.
  return Math.ceil(Math.log2(pixelScale) - 1e-9) + 0; // + 0 turns −0 into 0
}

/** Device pixels per board pixel in a level's tiles. */
export function levelScale(level) {
  return 2 ** level;
}

/** The side of a level's tiles in board pixels. */
export function tileSpan(level) {
  return TILE_PIXELS / 2 ** level;
}

/** The key of a tile in the cache. */
export function tileKey(level, i, j) {
  return `${level}/${i}/${j}`;
}

/**
 * The board square a tile holds.
 * @returns {import('../geometry/rect.js').Rect}
 */
export function tileRect(level, i, j) {
  const span = tileSpan(level);
  return { minX: i * span, minY: j * span, maxX: (i + 1) * span, maxY: (j + 1) * span };
}

/**
 * The tiles of a level that meet a board rectangle, as index ranges (inclusive).
 * @param {import('../geometry/rect.js').Rect} rect
 * @returns {{minI: number, minJ: number, maxI: number, maxJ: number}}
 */
export function tileRange(rect, level) {
  const span = tileSpan(level);
  return {
    minI: Math.floor(rect.minX / span),
    minJ: Math.floor(rect.minY / span),
    // A rectangle ending exactly on a tile edge does not reach into the next tile.
    maxI: Math.ceil(rect.maxX / span) - 1,
    maxJ: Math.ceil(rect.maxY / span) - 1,
  };
}

/**
 * The tiles to show for a view, nearest the centre first (they are painted first when time is short).
 * @param {import('./viewport.js').Viewport} viewport
 * @param {number} devicePixelRatio
 * @returns {{level: number, tiles: {i: number, j: number}[], range: ReturnType<typeof tileRange>}}
 */
export function visibleTiles(viewport, devicePixelRatio) {
  const level = levelFor(viewport.scale * devicePixelRatio);
  const rect = viewport.visibleRect();
  const range = tileRange(rect, level);
  const ci = (range.minI + range.maxI) / 2;
  const cj = (range.minJ + range.maxJ) / 2;
  const tiles = [];
  for (let j = range.minJ; j <= range.maxJ; j++) for (let i = range.minI; i <= range.maxI; i++) tiles.push({ i, j });
  tiles.sort((a, b) => Math.hypot(a.i - ci, a.j - cj) - Math.hypot(b.i - ci, b.j - cj));
  return { level, tiles, range };
}

/**
 * Where a tile lands on the screen canvas, in device pixels, with edges rounded so that neighbouring
 * tiles share them exactly (no seams, no overlaps).
 * @param {import('./viewport.js').Viewport} viewport
 * @returns {{x: number, y: number, width: number, height: number}}
 */
export function tileDestination(viewport, devicePixelRatio, level, i, j) {
  const span = tileSpan(level);
  const k = viewport.scale * devicePixelRatio;
  const x0 = Math.round((i * span - viewport.originX) * k);
  const y0 = Math.round((j * span - viewport.originY) * k);
  const x1 = Math.round(((i + 1) * span - viewport.originX) * k);
  const y1 = Math.round(((j + 1) * span - viewport.originY) * k);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
