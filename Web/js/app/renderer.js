/**
 * Draws the board: committed strokes composited from the tile cache onto a base canvas, and everything
 * that moves (the stroke being drawn, others' ink, the eraser) on an overlay canvas above it, each frame
 * it is needed. A pointer move asks for a frame and the overlay shows it in that frame.
 *
 * Board changes are queued and folded into the scene at the start of the next frame, so a burst of
 * remote changes costs one scene update and one composite.
 *
 * Images are painted into the tiles like strokes, with the pixels at hand (a placeholder otherwise); the page
 * says when an image's pixels come (`invalidate` its box), so no frame ever waits for one.
 */

import { emptyDelta } from '../model/board-state.js';
import { inkStyle } from './colour.js';
import { FrameStats } from './frame-stats.js';
import { noImages, paintStrokes } from './stroke-painter.js';
import { TileCache, needsWork } from './tile-cache.js';
import { TILE_PIXELS, tileDestination, tileRange, visibleTiles } from './tile-grid.js';

/** Milliseconds of tile painting per frame: leaves room for compositing and input at 60 Hz. */
const FRAME_BUDGET = 7;
/** How many coarser levels may stand in for a tile not painted yet (far enough to reach the overview). */
const FALLBACK_LEVELS = 12;
/** The overview is this many levels coarser than the view at least, or it would not be worth its cost. */
const OVERVIEW_GAP = 2;

/**
 * @typedef {(ctx: CanvasRenderingContext2D, renderer: Renderer) => void} OverlayLayer draws in board
 *   coordinates (the context maps them to device pixels)
 */

/** The board's two canvases and the frame loop that keeps them current. */
export class Renderer {
  #base;
  #overlay;
  #baseCtx;
  #overlayCtx;
  #pending = emptyDelta();
  #hasPending = false;
  #scheduled = false;
  #continued = false;
  #baseDirty = true;
  #overlayDirty = true;
  #viewVersion = -1;
  #dpr = 1;
  /** @type {OverlayLayer[]} */
  #layers = [];
  /** @type {((renderer: Renderer) => void)[]} */
  #viewListeners = [];
  /** @type {((renderer: Renderer) => void)[]} */
  #sceneListeners = [];
  #styles = new Map();
  #theme = 'light';
  #window;
  #clearPreviewWithDelta = false;
  /** The last composite used nearest-neighbour scaling (while the view moved): smooth it once it rests. */
  #roughComposite = false;

  /**
   * @param {{
   *   scene: import('./scene.js').Scene, viewport: import('./viewport.js').Viewport,
   *   base: HTMLCanvasElement, overlay: HTMLCanvasElement, window?: Window, theme?: 'light' | 'dark',
   *   images?: import('./stroke-painter.js').ImageSource
   * }} options `images` gives the pixels of the images at hand
   */
  constructor({ scene, viewport, base, overlay, window: win = globalThis.window, theme = 'light', images = noImages }) {
    this.scene = scene;
    /** The pixels of images at hand, for every painter of the board. */
    this.images = images;
    this.viewport = viewport;
    this.#base = base;
    this.#overlay = overlay;
    this.#window = win;
    this.#baseCtx = base.getContext('2d', { alpha: true });
    this.#overlayCtx = overlay.getContext('2d');
    this.#theme = theme;
    this.style = (colour) => this.#style(colour);
    this.stats = new FrameStats();
    /** Whether every tile on screen was fully painted at the last composite (benchmarks report it). */
    this.lastFrameComplete = true;
    /** Composites that showed a stand-in for some tile (a coarser or finer one), and those that had none. */
    this.incompleteFrames = 0;
    this.holeFrames = 0;
    // Plain canvases, not OffscreenCanvas: in Chrome's software mode compositing those was three times dearer.
    const createCanvas = (w, h) => Object.assign(win.document.createElement('canvas'), { width: w, height: h });
    // Drawing one pixel of a tile elsewhere makes the browser rasterise what was recorded on it.
    const probe = createCanvas(1, 1).getContext('2d');
    const flush = (canvas) => probe.drawImage(canvas, 0, 0, 1, 1, 0, 0, 1, 1);
    this.tiles = new TileCache({
      scene,
      createCanvas,
      flush,
      paint: (ctx, strokes, scale) => paintStrokes(ctx, strokes, this.style, scale, this.images),
    });
  }

  /** The theme strokes are drawn for. */
  get theme() {
    return this.#theme;
  }

  /** Draws for another theme: dark inks are lightened on the dark board, so every tile repaints. */
  setTheme(theme) {
    if (theme === this.#theme) return;
    this.#theme = theme;
    this.#styles.clear();
    this.tiles.invalidateAll();
    this.#baseDirty = true;
    this.#overlayDirty = true;
    this.requestFrame();
  }

  /** The device pixel ratio the canvases are sized for. */
  get devicePixelRatio() {
    return this.#dpr;
  }

  /**
   * Notes a board delta; it is folded into the scene at the next frame.
   * @param {import('../model/board-state.js').BoardDelta} delta
   */
  noteDelta(delta) {
    for (const id of delta.strokes) this.#pending.strokes.add(id);
    this.#pending.reordered ||= delta.reordered;
    this.#pending.everything ||= delta.everything;
    this.#hasPending = true;
    this.requestFrame();
  }

  /**
   * Board areas that look different for reasons the board does not know (the eraser's preview).
   * @param {Iterable<import('../geometry/rect.js').Rect>} rects
   */
  invalidate(rects) {
    for (const rect of rects) this.tiles.invalidate(rect);
    this.requestFrame();
  }

  /**
   * The eraser's preview is about to be replaced by a committed change: drop it when that change's delta
   * is folded in, in the same frame, so the erased ink never flashes back.
   */
  clearPreviewWithNextDelta() {
    this.#clearPreviewWithDelta = true;
  }

  /** Drops the eraser's preview now (a cancelled drag). */
  dropPreview() {
    this.#clearPreviewWithDelta = false;
    this.invalidate(this.scene.clearPreview());
  }

  /**
   * Shows the text box `id` in its editor rather than on the tiles (null: none).
   * @param {string | null} id
   */
  setEditing(id) {
    this.invalidate(this.scene.setEditing(id));
  }

  /** Adds a layer drawn on the overlay each time it is redrawn. @param {OverlayLayer} layer */
  addLayer(layer) {
    this.#layers.push(layer);
  }

  /** Calls `listener` after each frame in which the view moved or the surface was resized. */
  onViewChange(listener) {
    this.#viewListeners.push(listener);
  }

  /** Calls `listener` each time board changes were folded into the scene (before the frame paints). */
  onSceneChange(listener) {
    this.#sceneListeners.push(listener);
  }

  /** Something on the overlay moved: redraw it next frame. */
  overlayChanged() {
    this.#overlayDirty = true;
    this.requestFrame();
  }

  /** Asks for a frame (once, however often it is called before it runs). */
  requestFrame() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#window.requestAnimationFrame((timestamp) => this.#frame(timestamp));
  }

  /** Sizes the canvases to the surface (CSS pixels) at the current device pixel ratio. */
  resize(width, height) {
    const dpr = this.#window.devicePixelRatio || 1;
    this.#dpr = dpr;
    for (const canvas of [this.#base, this.#overlay]) {
      const w = Math.max(1, Math.round(width * dpr));
      const h = Math.max(1, Math.round(height * dpr));
      if (canvas.width !== w) canvas.width = w;
      if (canvas.height !== h) canvas.height = h;
    }
    this.viewport.resize(width, height);
    this.#baseDirty = true;
    this.#overlayDirty = true;
    this.requestFrame();
  }

  #frame(timestamp) {
    this.#scheduled = false;
    const start = performance.now();
    const deadline = start + FRAME_BUDGET;
    if (this.#hasPending) this.#applyPending();
    const viewMoved = this.viewport.version !== this.#viewVersion;
    if (viewMoved) {
      this.#viewVersion = this.viewport.version;
      this.#baseDirty = true;
      this.#overlayDirty = true;
    }
    const { level, tiles, range } = visibleTiles(this.viewport, this.#dpr);
    const onScreen = tiles.map(({ i, j }) => this.tiles.ensure(level, i, j));
    const busyBefore = onScreen.some(needsWork);
    let busy = this.tiles.work(onScreen, deadline);
    if (busyBefore) this.#baseDirty = true;
    // Then the overview (so zooming out never shows blank space), then the tiles just off screen.
    if (!busy && performance.now() < deadline) busy = this.#paintOverview(level, deadline);
    if (!busy && performance.now() < deadline) busy = this.#prefetch(level, range, deadline);
    this.tiles.evict(new Set(onScreen.map((tile) => tile.key)));
    if (this.#roughComposite && !viewMoved) this.#baseDirty = true;
    if (this.#baseDirty) this.#composite(level, onScreen, viewMoved);
    if (this.#overlayDirty) this.#drawOverlay();
    if (viewMoved) for (const listener of this.#viewListeners) listener(this);
    this.stats.frame(timestamp, this.#continued, performance.now() - start);
    this.#continued = busy || this.#scheduled;
    if (busy || this.#roughComposite) this.requestFrame();
  }

  #applyPending() {
    const delta = this.#pending;
    this.#pending = emptyDelta();
    this.#hasPending = false;
    const change = this.scene.update(delta);
    if (change.everything) {
      this.tiles.invalidateAll();
    } else {
      for (const rect of change.dirty) this.tiles.invalidate(rect);
      if (change.added.length > 0) {
        // The text box being edited shows in its editor, not in the tiles.
        const added = change.added.map((id) => this.scene.stroke(id)).filter((stroke) => stroke.id !== this.scene.editing);
        if (this.scene.onTop(change.added)) {
          this.tiles.paintOnTop(this.scene.sort(added));
        } else {
          for (const stroke of added) this.tiles.invalidate(stroke.bounds);
        }
      }
    }
    if (this.#clearPreviewWithDelta) {
      this.#clearPreviewWithDelta = false;
      for (const rect of this.scene.clearPreview()) this.tiles.invalidate(rect);
    }
    this.#baseDirty = true;
    for (const listener of this.#sceneListeners) listener(this);
  }

  /** Paints the ring of tiles just off screen with time left over, so a pan finds them ready. */
  #prefetch(level, range, deadline) {
    const ring = [];
    for (let j = range.minJ - 1; j <= range.maxJ + 1; j++) {
      for (let i = range.minI - 1; i <= range.maxI + 1; i++) {
        if (i >= range.minI && i <= range.maxI && j >= range.minJ && j <= range.maxJ) continue;
        if (ring.length + (range.maxI - range.minI + 1) * (range.maxJ - range.minJ + 1) >= this.tiles.maximumTiles / 2) break;
        ring.push(this.tiles.ensure(level, i, j));
      }
    }
    return this.tiles.work(ring, deadline);
  }

  /**
   * Draws the tiles on screen. While the view moves, scaled tiles are drawn without smoothing: in Chrome's
   * software mode filtering a screenful costs more than a frame. The frame after the view rests draws them
   * smoothly again.
   */
  /**
   * With time to spare, paints the whole board at a coarse level into a few tiles: when the view zooms out
   * to parts never seen at that zoom, these stand in (blurry) instead of blank space.
   */
  #paintOverview(level, deadline) {
    const extent = this.scene.extent();
    if (extent === null) return false;
    const span = Math.max(extent.maxX - extent.minX, extent.maxY - extent.minY, 1);
    // The finest level at which two tiles span the board.
    const overview = Math.floor(Math.log2((2 * TILE_PIXELS) / span));
    if (overview > level - OVERVIEW_GAP) return false;
    const range = tileRange(extent, overview);
    const tiles = [];
    for (let j = range.minJ; j <= range.maxJ; j++) for (let i = range.minI; i <= range.maxI; i++) tiles.push(this.tiles.ensure(overview, i, j));
    return this.tiles.work(tiles, deadline);
  }

  #composite(level, onScreen, moving) {
    const ctx = this.#baseCtx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.#base.width, this.#base.height);
    const exact = this.viewport.scale * this.#dpr === 2 ** level;
    ctx.imageSmoothingEnabled = !moving || exact;
    this.#roughComposite = moving && !exact;
    let complete = true;
    let holes = false;
    for (const tile of onScreen) {
      const dest = tileDestination(this.viewport, this.#dpr, level, tile.i, tile.j);
      if (tile.complete) {
        ctx.drawImage(tile.canvas, dest.x, dest.y, dest.width, dest.height);
        continue;
      }
      complete = false;
      if (!this.#drawFallback(ctx, tile, dest)) {
        holes = true;
        if (tile.job !== null) ctx.drawImage(tile.canvas, dest.x, dest.y, dest.width, dest.height);
      }
    }
    this.lastFrameComplete = complete;
    if (!complete) this.incompleteFrames++;
    if (holes) this.holeFrames++;
    this.#baseDirty = false;
  }

  /** Stands in for a tile not painted yet with a coarser one (blurry) or four finer ones (sharp). */
  #drawFallback(ctx, tile, dest) {
    for (let up = 1; up <= FALLBACK_LEVELS; up++) {
      const factor = 2 ** up;
      const parent = this.tiles.get(tile.level - up, Math.floor(tile.i / factor), Math.floor(tile.j / factor));
      if (parent === undefined || !parent.complete) continue;
      const size = TILE_PIXELS / factor;
      const sx = (tile.i - parent.i * factor) * size;
      const sy = (tile.j - parent.j * factor) * size;
      ctx.drawImage(parent.canvas, sx, sy, size, size, dest.x, dest.y, dest.width, dest.height);
      return true;
    }
    const children = [];
    for (const [di, dj] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      const child = this.tiles.get(tile.level + 1, 2 * tile.i + di, 2 * tile.j + dj);
      if (child === undefined || !child.complete) return false;
      children.push([child, di, dj]);
    }
    const halfW = dest.width / 2;
    const halfH = dest.height / 2;
    for (const [child, di, dj] of children) {
      ctx.drawImage(child.canvas, dest.x + di * halfW, dest.y + dj * halfH, halfW, halfH);
    }
    return true;
  }

  #drawOverlay() {
    const ctx = this.#overlayCtx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.#overlay.width, this.#overlay.height);
    const k = this.viewport.scale * this.#dpr;
    for (const layer of this.#layers) {
      ctx.save();
      ctx.setTransform(k, 0, 0, k, -this.viewport.originX * k, -this.viewport.originY * k);
      layer(ctx, this);
      ctx.restore();
    }
    this.#overlayDirty = false;
  }

  #style(colour) {
    let style = this.#styles.get(colour);
    if (style === undefined) {
      style = inkStyle(colour, this.#theme);
      this.#styles.set(colour, style);
    }
    return style;
  }

  /** Whether the tiles for the current view are all painted (tests wait for it). */
  get settled() {
    const { level, tiles } = visibleTiles(this.viewport, this.#dpr);
    return tiles.every(({ i, j }) => {
      const tile = this.tiles.get(level, i, j);
      return tile !== undefined && !needsWork(tile);
    }) && !this.#hasPending;
  }
}

