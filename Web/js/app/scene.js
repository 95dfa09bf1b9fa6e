/**
 * What the renderer and the erasers need of the board, kept up to date from each delta: per visible stroke
 * its smooth curve, its visible pieces, its painted bounds, its place in the stack, and a spatial index of
 * where its ink lies (Swift's `StrokeIndex`, plus what a renderer needs). A text box is there too, with its
 * lines' measured box (text-layout.js) in place of a curve; an image too, with the box it fills.
 *
 * It also holds the eraser's preview: parts cut or strokes taken away while the pointer is still down,
 * shown at once but committed as one change at pointer-up; and the text box being edited, which the
 * editor shows instead of the tiles.
 */

import { chunkBounds, gaps, intervalUnion, isDotVisible, pointChunkBounds, smoothCurve, SpatialIndex } from '../geometry/index.js';
import { imageCorners } from '../model/board-images.js';
import { LINE_HEIGHT, boundingPoints, boxCorners, layoutRect, measureLine } from './text-layout.js';

/**
 * @typedef {import('../geometry/rect.js').Rect} Rect
 * @typedef {import('../model/board-drawing.js').DrawingStroke} DrawingStroke
 * @typedef {{
 *   id: string, colour: number, width: number, z: number, points: [number, number][], pointCount: number,
 *   pressures: number[] | null, transform: number[], identity: boolean,
 *   curve: import('../geometry/smooth-curve.js').SmoothCurve | null,
 *   hitCurve: import('../geometry/smooth-curve.js').SmoothCurve | null,
 *   pieces: [number, number][], shown: [number, number][], bounds: Rect, exactBounds?: Rect, boxes: Rect[],
 *   spacing: number,
 *   text?: string, layout?: Rect, corners?: [number, number][],
 *   image?: import('../model/board-image.js').BoardImage, fill?: number,
 *   pressureCache?: {shown: [number, number][], samples: Float64Array[]}
 * }} SceneStroke `pieces` are the board's visible pieces, `shown` those minus the eraser's preview (what
 *   to paint); `curve` is in the stroke's own coordinates (paint it under `transform`), `hitCurve` in board
 *   coordinates (what erasers test, as Swift's `StrokeIndex`), each built when first read; `bounds` and
 *   `boxes` hold what it paints (ink by its points, cheaply; `exactBounds`, ink's tight box, by its curve);
 *   `spacing` is the mean distance between its points, which tells a painter when segments are too small
 *   to show as curves. A text box has `text`, no curves, `layout` (its lines' box before the transform) and
 *   `corners` (that box on the board). An image has `image` (its blob and box), no curves, and `corners`,
 *   the box it fills on the board.
 *   Filled ink has `fill` (0xRRGGBBAA), painted inside its whole closed curve. `pressureCache` keeps the
 *   outline of ink with pressure (pressure-outline.js) for as long as the record, which a change that
 *   alters the stroke's look replaces.
 * @typedef {{dirty: Rect[], added: string[], everything: boolean}} SceneChange what to repaint
 */

/** Painted ink may reach past the curve's boxes by anti-aliasing: a little slack keeps repaints clean. */
const SLACK = 1.5;

/** The visible strokes as the renderer and the erasers need them. */
export class Scene {
  /** @type {Map<string, SceneStroke>} */
  #strokes = new Map();
  #index = new SpatialIndex({ cellSize: 256 });
  /** @type {Map<string, number> | null} stack position of each stroke; null until asked after a change */
  #ranks = null;
  /** @type {Map<string, [number, number][] | 'hidden'>} */
  #preview = new Map();
  /** @type {Rect | null} a box holding every stroke ever in the scene since the last rebuild */
  #extent = null;
  /** @type {string | null} the text box the editor shows: tiles leave it out */
  #editing = null;
  /** @type {Set<string>} the images among the strokes: what the page fetches */
  #images = new Set();

  /**
   * @param {import('../model/board.js').Board} board
   * @param {{measure?: import('./text-layout.js').Measure}} [options] how text boxes' lines are measured
   */
  constructor(board, { measure = measureLine } = {}) {
    this.board = board;
    this.measure = measure;
    this.rebuild();
  }

  /** The number of visible strokes. */
  get count() {
    return this.#strokes.size;
  }

  /** Re-reads every visible stroke. O(visible points). */
  rebuild() {
    this.#strokes.clear();
    this.#images.clear();
    this.#index = new SpatialIndex({ cellSize: 256 });
    this.#extent = null;
    for (const stroke of this.board.strokes()) this.#refresh(stroke);
    this.#ranks = null;
  }

  /**
   * Brings the scene up to date after the board returned `delta` (or several, merged).
   * @param {import('../model/board-state.js').BoardDelta} delta
   * @returns {SceneChange} the board areas that look different now, and the strokes new to the scene
   * - Complexity: O(points of the strokes the delta names); O(visible points) after a clear.
   */
  update(delta) {
    if (delta.everything) {
      this.rebuild();
      return { dirty: [], added: [], everything: true };
    }
    const dirty = [];
    const added = [];
    for (const id of delta.strokes) {
      const old = this.#strokes.get(id);
      const stroke = this.board.stroke(id);
      if (stroke === null) {
        if (old === undefined) continue;
        this.#strokes.delete(id);
        this.#images.delete(id);
        this.#index.remove(id);
        dirty.push(old.bounds);
        this.#ranks = null;
        continue;
      }
      if (old !== undefined && looksTheSame(old, stroke)) {
        old.pieces = stroke.pieces;
        continue;
      }
      const record = this.#refresh(stroke);
      if (old === undefined) {
        added.push(id);
        this.#ranks = null;
      } else {
        dirty.push(old.bounds, record.bounds);
        if (old.z !== record.z) this.#ranks = null;
      }
    }
    if (delta.reordered) this.#ranks = null;
    return { dirty, added, everything: false };
  }

  /** @param {string} id @returns {SceneStroke | undefined} */
  stroke(id) {
    return this.#strokes.get(id);
  }

  /** Every stroke in the scene, in no particular order. */
  strokes() {
    return this.#strokes.values();
  }

  /** The images in the scene, in no particular order. @returns {SceneStroke[]} */
  images() {
    const images = [];
    for (const id of this.#images) {
      const stroke = this.#strokes.get(id);
      if (stroke !== undefined) images.push(stroke);
    }
    return images;
  }

  /**
   * The strokes whose ink may reach into `rect`, bottom to top, without those the eraser preview hides.
   * @param {Rect} rect
   * @returns {SceneStroke[]}
   */
  query(rect) {
    const found = [];
    for (const id of this.#index.query(rect)) {
      const stroke = this.#strokes.get(id);
      if (stroke !== undefined && stroke.shown.length > 0 && id !== this.#editing) found.push(stroke);
    }
    return this.sort(found);
  }

  /** The text box being edited (which tiles leave out), or null. */
  get editing() {
    return this.#editing;
  }

  /**
   * Leaves a text box out of what tiles paint while the editor shows it (or, null, none).
   * @param {string | null} id
   * @returns {Rect[]} the areas to repaint
   */
  setEditing(id) {
    if (id === this.#editing) return [];
    const dirty = [];
    for (const one of [this.#editing, id]) {
      const stroke = one === null ? undefined : this.#strokes.get(one);
      if (stroke !== undefined) dirty.push(stroke.bounds);
    }
    this.#editing = id;
    return dirty;
  }

  /**
   * The strokes whose boxes meet `rect`, whatever the preview says: what erasers test.
   * @param {Rect} rect
   * @returns {SceneStroke[]}
   */
  near(rect) {
    const found = [];
    for (const id of this.#index.query(rect)) {
      const stroke = this.#strokes.get(id);
      if (stroke !== undefined) found.push(stroke);
    }
    return found;
  }

  /** Sorts strokes bottom to top, in place. @param {SceneStroke[]} strokes */
  sort(strokes) {
    const ranks = this.ranks();
    return strokes.sort((a, b) => (ranks.get(a.id) ?? 0) - (ranks.get(b.id) ?? 0));
  }

  /**
   * The stack position of every visible stroke (0 at the bottom).
   * @returns {Map<string, number>}
   * - Complexity: O(visible strokes) the first time after a change that adds or restacks strokes.
   */
  ranks() {
    if (this.#ranks === null) {
      const ranks = new Map();
      let rank = 0;
      for (const stroke of this.board.strokes()) ranks.set(stroke.id, rank++);
      this.#ranks = ranks;
    }
    return this.#ranks;
  }

  /**
   * Whether `ids` are the topmost strokes of the stack (in any order): then painting them over what is
   * there already gives the right picture.
   * @param {string[]} ids
   */
  onTop(ids) {
    const ranks = this.ranks();
    const floor = ranks.size - ids.length;
    return ids.every((id) => (ranks.get(id) ?? -1) >= floor);
  }

  /**
   * A box holding every stroke, cheaply: it grows as strokes come and shrinks only on a rebuild, so it may
   * be larger than the drawing (use `bounds()` for the exact box).
   * @returns {Rect | null}
   */
  extent() {
    return this.#extent;
  }

  /**
   * The union of every stroke's painted bounds, tight (ink's by its curve, so every curve is built), or null
   * for an empty board: for exports and fitting the view, not for every frame. @returns {Rect | null}
   */
  bounds() {
    let box = null;
    for (const stroke of this.#strokes.values()) {
      if (stroke.shown.length === 0) continue;
      const b = stroke.exactBounds ?? stroke.bounds;
      box =
        box === null
          ? { ...b }
          : {
              minX: Math.min(box.minX, b.minX),
              minY: Math.min(box.minY, b.minY),
              maxX: Math.max(box.maxX, b.maxX),
              maxY: Math.max(box.maxY, b.maxY),
            };
    }
    return box;
  }

  /**
   * Shows a stroke as the eraser would leave it: without `cut` (parameter intervals), or not at all.
   * @param {string} id
   * @param {[number, number][] | 'hidden'} cut
   * @param {Rect} [area] where the look changes (the eraser's reach); the stroke's bounds if not given
   * @returns {Rect | null} the area to repaint, or null when the stroke is not in the scene
   */
  preview(id, cut, area) {
    const stroke = this.#strokes.get(id);
    if (stroke === undefined) return null;
    this.#preview.set(id, cut === 'hidden' ? 'hidden' : intervalUnion(cut));
    stroke.shown = shownPieces(stroke, this.#preview.get(id));
    return area === undefined ? stroke.bounds : grown(area, stroke.width / 2 + SLACK);
  }

  /**
   * Drops the eraser's preview (after its change was committed, or on cancel).
   * @returns {Rect[]} the areas to repaint
   */
  clearPreview() {
    const dirty = [];
    for (const id of this.#preview.keys()) {
      const stroke = this.#strokes.get(id);
      if (stroke === undefined) continue;
      const before = stroke.shown;
      stroke.shown = stroke.pieces;
      if (!samePieces(before, stroke.shown)) dirty.push(stroke.bounds);
    }
    this.#preview.clear();
    return dirty;
  }

  /** Whether the eraser preview changes anything now. */
  get previewing() {
    return this.#preview.size > 0;
  }

  /** @param {DrawingStroke} stroke */
  #refresh(stroke) {
    if (stroke.text !== undefined) return this.#refreshBox(stroke);
    if (stroke.image !== undefined) return this.#refreshImage(stroke);
    const identity = isIdentity(stroke.transform);
    const t = stroke.transform;
    const points = stroke.points;
    const reach = (stroke.width / 2) * Math.max(1, transformScale(t)) + SLACK;
    // Filed by its points' boxes, which hold the curve: the curves are built when first asked for (painted,
    // hit, erased), so a board of tens of thousands of strokes opens without smoothing those out of view.
    const painted = (chunks) => (identity ? chunks : chunks.map((box) => transformedBox(t, box))).map((box) => grown(box, reach));
    const { boxes: chunks, spacing } = pointChunkBounds(points);
    const boxes = painted(chunks);
    /** @type {import('../geometry/smooth-curve.js').SmoothCurve | null} */
    let curve = null;
    /** @type {import('../geometry/smooth-curve.js').SmoothCurve | null} */
    let hitCurve = null;
    /** @type {Rect | null} */
    let exactBounds = null;
    // A fill covers the inside of the curve, which the chunks' boxes along it need not reach.
    if (stroke.fill !== undefined && stroke.points.length > 2) boxes.push(unionOf(boxes));
    /** @type {SceneStroke} */
    const record = {
      id: stroke.id,
      colour: stroke.colour,
      width: stroke.width,
      z: stroke.z,
      points: stroke.points,
      pointCount: stroke.points.length,
      pressures: stroke.pressures,
      transform: stroke.transform,
      identity,
      get curve() {
        return (curve ??= smoothCurve(points));
      },
      get hitCurve() {
        return (hitCurve ??= identity ? this.curve : smoothCurve(points.map(([x, y]) => apply(t, x, y))));
      },
      pieces: stroke.pieces,
      shown: stroke.pieces,
      bounds: unionOf(boxes),
      get exactBounds() {
        return (exactBounds ??= unionOf(painted(chunkBounds(this.curve))));
      },
      boxes,
      spacing,
    };
    if (stroke.fill !== undefined) record.fill = stroke.fill;
    return this.#keep(record);
  }

  /**
   * A text box: its lines measured, their box on the board; bounds grown for glyphs that reach past the
   * line box (accents above, tails below) and anti-aliasing.
   * @param {DrawingStroke} stroke
   */
  #refreshBox(stroke) {
    const t = stroke.transform;
    const layout = layoutRect(stroke, this.measure);
    const corners = boxCorners(t, layout);
    const reach = (LINE_HEIGHT - 1) * stroke.width * Math.max(1, transformScale(t)) + SLACK;
    const bounds = grown(boundingPoints(corners), reach);
    return this.#keep({ ...boxRecord(stroke, bounds, corners), text: stroke.text, layout });
  }

  /**
   * An image: the box it fills on the board, bounds grown for anti-aliasing at its edges.
   * @param {DrawingStroke} stroke
   */
  #refreshImage(stroke) {
    const corners = imageCorners(stroke);
    const bounds = grown(boundingPoints(corners), SLACK);
    return this.#keep({ ...boxRecord(stroke, bounds, corners), image: stroke.image });
  }

  /** Puts a record in the scene and its boxes in the index. @param {SceneStroke} record */
  #keep(record) {
    const boxes = record.boxes;
    if (record.image !== undefined) this.#images.add(record.id);
    else this.#images.delete(record.id);
    const previewed = this.#preview.get(record.id);
    if (previewed !== undefined) record.shown = shownPieces(record, previewed);
    this.#strokes.set(record.id, record);
    const b = record.bounds;
    const e = this.#extent;
    this.#extent =
      e === null
        ? { ...b }
        : { minX: Math.min(e.minX, b.minX), minY: Math.min(e.minY, b.minY), maxX: Math.max(e.maxX, b.maxX), maxY: Math.max(e.maxY, b.maxY) };
    if (!this.#index.update(record.id, boxes)) this.#index.insert(record.id, boxes);
    return record;
  }
}

/** A stroke's pieces minus a preview cut. */
function shownPieces(stroke, cut) {
  if (cut === 'hidden') return [];
  if (stroke.pointCount === 1) return isDotVisible(cut) ? [] : stroke.pieces;
  const shown = [];
  for (const piece of stroke.pieces) shown.push(...gaps(cut, piece[0], piece[1]));
  return shown;
}

/** Whether a stroke from the board paints exactly as the scene's record of it already does. */
function looksTheSame(record, stroke) {
  return (
    record.points === stroke.points &&
    record.pointCount === stroke.points.length &&
    record.pressures === stroke.pressures &&
    record.text === stroke.text &&
    record.image === stroke.image &&
    record.fill === stroke.fill &&
    record.colour === stroke.colour &&
    record.width === stroke.width &&
    record.z === stroke.z &&
    record.transform.every((value, i) => value === stroke.transform[i]) &&
    samePieces(record.shown, stroke.pieces)
  );
}

/** @param {[number, number][]} a @param {[number, number][]} b */
export function samePieces(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i][0] !== b[i][0] || a[i][1] !== b[i][1]) return false;
  return true;
}

/** @param {number[]} t */
export function isIdentity(t) {
  return t[0] === 1 && t[1] === 0 && t[2] === 0 && t[3] === 1 && t[4] === 0 && t[5] === 0;
}

/** `x' = a·x + c·y + tx, y' = b·x + d·y + ty`, as Swift's `Transform.apply`. @returns {[number, number]} */
export function apply(t, x, y) {
  return [t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5]];
}

/** The largest factor by which a transform stretches a length. */
export function transformScale(t) {
  return Math.max(Math.hypot(t[0], t[1]), Math.hypot(t[2], t[3]));
}

function transformedBox(t, box) {
  const corners = [
    apply(t, box.minX, box.minY),
    apply(t, box.maxX, box.minY),
    apply(t, box.minX, box.maxY),
    apply(t, box.maxX, box.maxY),
  ];
  return {
    minX: Math.min(...corners.map((p) => p[0])),
    minY: Math.min(...corners.map((p) => p[1])),
    maxX: Math.max(...corners.map((p) => p[0])),
    maxY: Math.max(...corners.map((p) => p[1])),
  };
}

/** @param {Rect} box @returns {Rect} */
export function grown(box, amount) {
  return { minX: box.minX - amount, minY: box.minY - amount, maxX: box.maxX + amount, maxY: box.maxY + amount };
}

function unionOf(boxes) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const box of boxes) {
    if (box.minX < minX) minX = box.minX;
    if (box.minY < minY) minY = box.minY;
    if (box.maxX > maxX) maxX = box.maxX;
    if (box.maxY > maxY) maxY = box.maxY;
  }
  return { minX, minY, maxX, maxY };
}

/**
 * The scene record of a text box or an image: one point, no curve, its box on the board (`corners`, after
 * its transform) and `bounds` around them; the caller adds what it draws.
 * @param {DrawingStroke} stroke
 * @param {Rect} bounds
 * @param {[number, number][]} corners
 * @returns {SceneStroke}
 */
function boxRecord(stroke, bounds, corners) {
  const t = stroke.transform;
  return {
    id: stroke.id,
    colour: stroke.colour,
    width: stroke.width,
    z: stroke.z,
    points: stroke.points,
    pointCount: stroke.points.length,
    pressures: null,
    transform: t,
    identity: isIdentity(t),
    curve: null,
    hitCurve: null,
    pieces: stroke.pieces,
    shown: stroke.pieces,
    bounds,
    boxes: [bounds],
    spacing: 0,
    corners,
  };
}
