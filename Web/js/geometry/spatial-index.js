/**
 * Finds the strokes (or any items) whose boxes meet a rectangle, so erasing and selecting on a large board
 * look only at what is near (Swift's `SpatialIndex` and `BoxGrid`).
 *
 * A uniform grid of square cells in a Map: the board is unbounded and mostly empty, strokes are small next
 * to it and queries are eraser-sized, so a few cell lookups answer a query. An item may have several boxes
 * (`chunkBounds` of a long stroke), so it is found only where its ink is. Boxes covering too many cells, or
 * not finite, go to a list every query scans. Results are the same as Swift's: each item once, in the order
 * items were first inserted.
 */

/** Cells are keyed by one number; Swift allows ±2³⁰ cells, 2²⁵ keeps the key exact (results do not change). */
const LIMIT = 2 ** 25;
const SPAN = 2 ** 26;

export class SpatialIndex {
  /**
   * @param {{cellSize?: number, maximumCellsPerBox?: number}} [configuration] cell side in board pixels
   *   (128: about an eraser drag or a stroke chunk; a non-finite or non-positive size means 128) and the most
   *   cells a box is filed under (256) before it goes to the scanned list.
   */
  constructor({ cellSize = 128, maximumCellsPerBox = 256 } = {}) {
    this.cellSize = Number.isFinite(cellSize) && cellSize > 0 ? cellSize : 128;
    this.maximumCellsPerBox = maximumCellsPerBox >= 1 ? maximumCellsPerBox : 1;
    /** @type {Map<unknown, number>} id → slot */
    this.slots = new Map();
    /** Per slot: its id, its boxes and its place in query order (-1 when free). */
    this.ids = [];
    this.boxes = [];
    this.orders = [];
    this.freeSlots = [];
    /** @type {Map<number, {box: import('./rect.js').Rect, slot: number}[]>} */
    this.cells = new Map();
    this.scanned = [];
    this.nextOrder = 0;
    /** Per slot: the query that last found it, so a query reports each slot once without a set. */
    this.seen = [];
    this.queryNumber = 0;
  }

  /** How many items are indexed. */
  get count() {
    return this.slots.size;
  }

  has(id) {
    return this.slots.has(id);
  }

  /** The boxes stored for `id`, or undefined. */
  boxesOf(id) {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : this.boxes[slot];
  }

  /**
   * Adds `id` with one box per chunk; false, changing nothing, if it is already there. O(c) for c cells.
   * @param {import('./rect.js').Rect[]} boxes
   */
  insert(id, boxes) {
    if (this.slots.has(id)) return false;
    const slot = this.freeSlots.length > 0 ? this.freeSlots.pop() : this.boxes.length;
    if (slot === this.boxes.length) {
      this.ids.push(id);
      this.boxes.push([]);
      this.orders.push(-1);
      this.seen.push(0);
    }
    this.ids[slot] = id;
    this.boxes[slot] = boxes.slice();
    this.orders[slot] = this.nextOrder++;
    this.slots.set(id, slot);
    this.file(slot);
    return true;
  }

  /** Replaces the boxes of `id` (a stroke grew or moved), keeping its place in query order. */
  update(id, boxes) {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    this.unfile(slot);
    this.boxes[slot] = boxes.slice();
    this.file(slot);
    return true;
  }

  /** Removes `id`; returns whether it was there. */
  remove(id) {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    this.slots.delete(id);
    this.unfile(slot);
    this.ids[slot] = undefined;
    this.boxes[slot] = [];
    this.orders[slot] = -1;
    this.freeSlots.push(slot);
    return true;
  }

  /**
   * The ids with a box that meets `rect` (touching counts), each once, in insertion order.
   * O(c + b + k log k) for c cells under `rect` (capped by the cells in use), b boxes filed there, k found.
   * @param {import('./rect.js').Rect} rect
   * @returns {unknown[]}
   */
  query(rect) {
    if (Number.isNaN(rect.minX) || Number.isNaN(rect.minY) || Number.isNaN(rect.maxX) || Number.isNaN(rect.maxY)) {
      return [];
    }
    const mark = ++this.queryNumber;
    const found = [];
    const visit = (items) => {
      for (const item of items) {
        const box = item.box;
        if (this.seen[item.slot] === mark) continue;
        if (box.minX <= rect.maxX && rect.minX <= box.maxX && box.minY <= rect.maxY && rect.minY <= box.maxY) {
          this.seen[item.slot] = mark;
          found.push(item.slot);
        }
      }
    };
    const range = this.cellRange(rect);
    if (range !== null && rangeCount(range) <= this.cells.size) {
      for (let y = range.minY; y <= range.maxY; y++) {
        for (let x = range.minX; x <= range.maxX; x++) {
          const items = this.cells.get(cellKey(x, y));
          if (items !== undefined) visit(items);
        }
      }
    } else {
      for (const items of this.cells.values()) visit(items);
    }
    visit(this.scanned);
    if (found.length > 1) found.sort((a, b) => this.orders[a] - this.orders[b]);
    return found.map((slot) => this.ids[slot]);
  }

  /** The cells under `box`, or null when it is not finite, inverted, or beyond the grid. */
  cellRange(box) {
    const minX = Math.floor(box.minX / this.cellSize);
    const minY = Math.floor(box.minY / this.cellSize);
    const maxX = Math.floor(box.maxX / this.cellSize);
    const maxY = Math.floor(box.maxY / this.cellSize);
    if (!(minX >= -LIMIT && minY >= -LIMIT && maxX < LIMIT && maxY < LIMIT && minX <= maxX && minY <= maxY)) {
      return null;
    }
    return { minX, minY, maxX, maxY };
  }

  /** The cells `box` is filed under, or null when it goes to the scanned list. */
  filing(box) {
    const range = this.cellRange(box);
    return range !== null && rangeCount(range) <= this.maximumCellsPerBox ? range : null;
  }

  file(slot) {
    for (const box of this.boxes[slot]) {
      const item = { box, slot };
      const range = this.filing(box);
      if (range === null) {
        this.scanned.push(item);
        continue;
      }
      for (let y = range.minY; y <= range.maxY; y++) {
        for (let x = range.minX; x <= range.maxX; x++) {
          const key = cellKey(x, y);
          const items = this.cells.get(key);
          if (items === undefined) this.cells.set(key, [item]);
          else items.push(item);
        }
      }
    }
  }

  unfile(slot) {
    for (const box of this.boxes[slot]) {
      const range = this.filing(box);
      if (range === null) continue;
      for (let y = range.minY; y <= range.maxY; y++) {
        for (let x = range.minX; x <= range.maxX; x++) {
          const key = cellKey(x, y);
          const items = this.cells.get(key);
          if (items === undefined) continue;
          const kept = items.filter((item) => item.slot !== slot);
          if (kept.length === 0) this.cells.delete(key);
          else this.cells.set(key, kept);
        }
      }
    }
    this.scanned = this.scanned.filter((item) => item.slot !== slot);
  }

  /** Throws when ids, slots, cells and the scanned list disagree. O(n + c). */
  checkInvariants() {
    const fail = (message) => {
      throw new Error(`SpatialIndex invariant: ${message}`);
    };
    if (this.ids.length !== this.boxes.length || this.boxes.length !== this.orders.length) fail('slot arrays differ');
    const expected = new Map();
    const expectedScanned = [];
    const seenOrders = new Set();
    for (let slot = 0; slot < this.boxes.length; slot++) {
      if (this.orders[slot] < 0) {
        if (!this.freeSlots.includes(slot) || this.boxes[slot].length > 0 || this.ids[slot] !== undefined) {
          fail(`unused slot ${slot} is not free`);
        }
        continue;
      }
      if (this.slots.get(this.ids[slot]) !== slot) fail(`slot ${slot} is not the one its id maps to`);
      if (this.orders[slot] >= this.nextOrder || seenOrders.has(this.orders[slot])) fail('order reused');
      seenOrders.add(this.orders[slot]);
      for (const box of this.boxes[slot]) {
        const range = this.filing(box);
        if (range === null) {
          expectedScanned.push({ box, slot });
          continue;
        }
        for (let y = range.minY; y <= range.maxY; y++) {
          for (let x = range.minX; x <= range.maxX; x++) {
            const key = cellKey(x, y);
            if (!expected.has(key)) expected.set(key, []);
            expected.get(key).push({ box, slot });
          }
        }
      }
    }
    if (new Set(this.freeSlots).size !== this.freeSlots.length) fail('a slot is free twice');
    if (this.slots.size + this.freeSlots.length !== this.boxes.length) fail('slots leak');
    if (canonical(this.scanned) !== canonical(expectedScanned)) fail('scanned list is off');
    if (this.cells.size !== expected.size) fail('cells and boxes disagree');
    for (const [key, items] of this.cells) {
      if (items.length === 0) fail('empty cell kept');
      if (canonical(items) !== canonical(expected.get(key) ?? [])) fail(`cell ${key} is off`);
    }
  }
}

function cellKey(x, y) {
  return (x + LIMIT) * SPAN + (y + LIMIT);
}

function rangeCount(range) {
  return (range.maxX - range.minX + 1) * (range.maxY - range.minY + 1);
}

/** Items in a canonical order, for comparing lists that may hold NaN or the same box twice. */
function canonical(items) {
  return items
    .map(({ box, slot }) => `${slot},${box.minX},${box.minY},${box.maxX},${box.maxY}`)
    .sort()
    .join(';');
}
