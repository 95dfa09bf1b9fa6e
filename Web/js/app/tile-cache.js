/**
 * Committed strokes cached as tiles (see tile-grid.js), so panning only composites bitmaps and a change
 * repaints only its dirty region.
 *
 * A tile is painted progressively: its strokes are listed once, then painted a chunk at a time until the
 * frame's time budget is spent, so a dense tile never stalls a frame. A complete tile keeps the board areas
 * that changed since (dirty rectangles) and repaints only those: clipped, cleared, and painted again with
 * the strokes that reach into them. A new stroke on top of the stack is painted straight over the tiles
 * it touches. Least recently used tiles off screen are dropped past a budget of tiles.
 */

import { TILE_PIXELS, tileKey, tileRect, levelScale } from './tile-grid.js';

/** Strokes painted between two looks at the clock. */
const CHUNK = 32;
/** Past this many dirty rectangles a tile repaints their union instead. */
const MAXIMUM_DIRTY = 8;

/**
 * @typedef {import('../geometry/rect.js').Rect} Rect
 * @typedef {{
 *   key: string, level: number, i: number, j: number, rect: Rect,
 *   canvas: HTMLCanvasElement | OffscreenCanvas, ctx: CanvasRenderingContext2D,
 *   complete: boolean, job: string[] | null, next: number, dirty: Rect[], used: number
 * }} Tile `job` null and `complete` false: not started (blank)
 * @typedef {(ctx: CanvasRenderingContext2D, strokes: Iterable<import('./scene.js').SceneStroke>, scale: number) => void} Paint
 *   `scale` is the tile's device pixels per board pixel (a painter may simplify what it cannot show)
 */

/** The cached tiles of every level, painted within a time budget. */
export class TileCache {
  /** @type {Map<string, Tile>} */
  #tiles = new Map();
  /** Canvases of dropped tiles, reused rather than reallocated. */
  #spare = [];
  #clock = 0;

  /**
   * @param {{
   *   scene: import('./scene.js').Scene, paint: Paint, createCanvas: (w: number, h: number) => any,
   *   flush?: (canvas: any) => void, maximumTiles?: number, now?: () => number
   * }} options `maximumTiles` 96: 96 MB of pixels. `flush` makes the browser rasterise what was painted on
   *   a tile now: Chrome records canvas drawing and rasterises it when the canvas is next read, which would
   *   otherwise land, unbudgeted, in the frame that composites the tile.
   */
  constructor({ scene, paint, createCanvas, flush = () => {}, maximumTiles = 96, now = () => performance.now() }) {
    this.scene = scene;
    this.paint = paint;
    this.flush = flush;
    this.createCanvas = createCanvas;
    this.maximumTiles = maximumTiles;
    this.now = now;
    /** Counters for benchmarks and tests. */
    this.stats = { tilesStarted: 0, tilesCompleted: 0, repairs: 0, strokesPainted: 0 };
  }

  /** The number of cached tiles. */
  get size() {
    return this.#tiles.size;
  }

  /** The tile, if cached. @returns {Tile | undefined} */
  get(level, i, j) {
    return this.#tiles.get(tileKey(level, i, j));
  }

  /** The tile, cached blank if it was not, and marked as used now. @returns {Tile} */
  ensure(level, i, j) {
    const key = tileKey(level, i, j);
    let tile = this.#tiles.get(key);
    if (tile === undefined) {
      const canvas = this.#spare.pop() ?? this.createCanvas(TILE_PIXELS, TILE_PIXELS);
      const ctx = canvas.getContext('2d');
      tile = { key, level, i, j, rect: tileRect(level, i, j), canvas, ctx, complete: false, job: null, next: 0, dirty: [], used: 0 };
      this.#tiles.set(key, tile);
    }
    tile.used = ++this.#clock;
    return tile;
  }

  /**
   * Some board area looks different now: tiles over it repaint it.
   * @param {Rect} rect
   */
  invalidate(rect) {
    for (const tile of this.#tiles.values()) {
      if (!meets(tile.rect, rect)) continue;
      if (tile.complete) {
        tile.dirty.push(rect);
        if (tile.dirty.length > MAXIMUM_DIRTY) tile.dirty = [union(tile.dirty)];
      } else {
        // A half-painted tile may already hold the old look: start it over.
        tile.job = null;
      }
    }
  }

  /** Everything looks different (a clear, its undo, a new theme): every tile starts over. */
  invalidateAll() {
    for (const tile of this.#tiles.values()) {
      tile.complete = false;
      tile.job = null;
      tile.dirty = [];
    }
  }

  /**
   * New strokes at the top of the stack: painted over the complete tiles they touch, appended to the
   * lists of tiles being painted.
   * @param {import('./scene.js').SceneStroke[]} strokes bottom to top
   */
  paintOnTop(strokes) {
    for (const tile of this.#tiles.values()) {
      const touching = strokes.filter((stroke) => meets(tile.rect, stroke.bounds));
      if (touching.length === 0) continue;
      if (tile.complete) {
        this.#withTileTransform(tile, () => this.paint(tile.ctx, touching, levelScale(tile.level)));
        this.flush(tile.canvas);
        this.stats.strokesPainted += touching.length;
      } else if (tile.job !== null) {
        for (const stroke of touching) if (!tile.job.includes(stroke.id)) tile.job.push(stroke.id);
      }
    }
  }

  /**
   * Paints tiles, in the order given, until done or `deadline` (a `now()` value) passes.
   * @param {Tile[]} tiles
   * @param {number} deadline
   * @returns {boolean} whether any of them still needs work
   */
  work(tiles, deadline) {
    for (const tile of tiles) {
      if (this.now() >= deadline) return tiles.some(needsWork);
      if (!tile.complete) this.#paintSome(tile, deadline);
      else if (tile.dirty.length > 0) this.#repair(tile);
    }
    return tiles.some(needsWork);
  }

  /**
   * Drops the least recently used tiles beyond the budget, never those in `keep`.
   * @param {Set<string>} keep keys of tiles on screen
   */
  evict(keep) {
    if (this.#tiles.size <= this.maximumTiles) return;
    const candidates = [...this.#tiles.values()].filter((tile) => !keep.has(tile.key)).sort((a, b) => a.used - b.used);
    for (const tile of candidates) {
      if (this.#tiles.size <= this.maximumTiles) break;
      this.#tiles.delete(tile.key);
      if (this.#spare.length < 16) this.#spare.push(tile.canvas);
    }
  }

  /** Drops every tile. */
  clear() {
    for (const tile of this.#tiles.values()) if (this.#spare.length < 16) this.#spare.push(tile.canvas);
    this.#tiles.clear();
  }

  /** @param {Tile} tile */
  #paintSome(tile, deadline) {
    const ctx = tile.ctx;
    if (tile.job === null) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, TILE_PIXELS, TILE_PIXELS);
      tile.job = this.scene.query(tile.rect).map((stroke) => stroke.id);
      tile.next = 0;
      tile.dirty = [];
      this.stats.tilesStarted++;
    }
    const job = tile.job;
    const scale = levelScale(tile.level);
    this.#withTileTransform(tile, () => {
      while (tile.next < job.length) {
        const end = Math.min(job.length, tile.next + CHUNK);
        const strokes = [];
        for (let k = tile.next; k < end; k++) {
          const stroke = this.scene.stroke(job[k]);
          if (stroke !== undefined) strokes.push(stroke);
        }
        this.paint(ctx, strokes, scale);
        this.flush(tile.canvas);
        this.stats.strokesPainted += strokes.length;
        tile.next = end;
        if (this.now() >= deadline) break;
      }
    });
    if (tile.next >= job.length) {
      tile.complete = true;
      tile.job = null;
      this.stats.tilesCompleted++;
    }
  }

  /** Repaints a complete tile's dirty rectangles: clip, clear, paint what reaches in. @param {Tile} tile */
  #repair(tile) {
    const ctx = tile.ctx;
    const scale = levelScale(tile.level);
    const rects = tile.dirty;
    tile.dirty = [];
    for (const rect of rects) {
      // Whole device pixels, rounded outwards, so no half-cleared pixel is left at the edge.
      const x0 = Math.max(0, Math.floor((rect.minX - tile.rect.minX) * scale));
      const y0 = Math.max(0, Math.floor((rect.minY - tile.rect.minY) * scale));
      const x1 = Math.min(TILE_PIXELS, Math.ceil((rect.maxX - tile.rect.minX) * scale));
      const y1 = Math.min(TILE_PIXELS, Math.ceil((rect.maxY - tile.rect.minY) * scale));
      if (!(x1 > x0 && y1 > y0)) continue;
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.beginPath();
      ctx.rect(x0, y0, x1 - x0, y1 - y0);
      ctx.clip();
      ctx.clearRect(x0, y0, x1 - x0, y1 - y0);
      const area = {
        minX: tile.rect.minX + x0 / scale,
        minY: tile.rect.minY + y0 / scale,
        maxX: tile.rect.minX + x1 / scale,
        maxY: tile.rect.minY + y1 / scale,
      };
      const strokes = this.scene.query(area);
      ctx.setTransform(scale, 0, 0, scale, -tile.rect.minX * scale, -tile.rect.minY * scale);
      this.paint(ctx, strokes, scale);
      ctx.restore();
      this.flush(tile.canvas);
      this.stats.repairs++;
      this.stats.strokesPainted += strokes.length;
    }
  }

  #withTileTransform(tile, body) {
    const scale = levelScale(tile.level);
    tile.ctx.save();
    tile.ctx.setTransform(scale, 0, 0, scale, -tile.rect.minX * scale, -tile.rect.minY * scale);
    body();
    tile.ctx.restore();
  }
}

/** Whether a tile still has painting to do. @param {Tile} tile */
export function needsWork(tile) {
  return !tile.complete || tile.dirty.length > 0;
}

function meets(a, b) {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

function union(rects) {
  return rects.reduce((a, b) => ({
    minX: Math.min(a.minX, b.minX),
    minY: Math.min(a.minY, b.minY),
    maxX: Math.max(a.maxX, b.maxX),
    maxY: Math.max(a.maxY, b.maxY),
  }));
}
