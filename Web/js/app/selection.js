/**
 * The strokes picked for editing: a set of stroke ids, not of strokes, so that whatever anyone does to
 * them (a remote move, a recolour) shows in the selection, and strokes that leave the board (deleted,
 * undone, cleared, by anyone) leave it too.
 *
 * It keeps the box around its strokes as the board draws them, worked out again only after a change
 * that touches them.
 */

import { selectionBounds } from './selecting.js';

/** The selected stroke ids of one page, and who wants to hear when they change. */
export class Selection {
  /** @type {Set<string>} */
  #ids = new Set();
  /** @type {import('../geometry/rect.js').Rect | null | undefined} undefined: to be worked out */
  #bounds = undefined;
  /** @type {(() => void)[]} */
  #listeners = [];

  /** @param {import('../model/board.js').Board} board the live board the ids name strokes of */
  constructor(board) {
    this.board = board;
  }

  /** The selected ids, sorted. @returns {string[]} */
  get ids() {
    return [...this.#ids].sort();
  }

  get size() {
    return this.#ids.size;
  }

  /** @param {string} id */
  has(id) {
    return this.#ids.has(id);
  }

  /** The selected strokes as the board has them now, in no particular order. - Complexity: O(selected). */
  strokes() {
    const strokes = [];
    for (const id of this.#ids) {
      const stroke = this.board.stroke(id);
      if (stroke !== null) strokes.push(stroke);
    }
    return strokes;
  }

  /**
   * The selected strokes bottom to top: the order copies keep.
   * - Complexity: O(visible strokes).
   */
  stacked() {
    return this.#ids.size === 0 ? [] : this.board.strokes().filter((stroke) => this.#ids.has(stroke.id));
  }

  /** The box around the selected strokes, or null for none. */
  get bounds() {
    if (this.#bounds === undefined) this.#bounds = selectionBounds(this.strokes());
    return this.#bounds;
  }

  /** Selects exactly `ids` (those the board shows). @param {Iterable<string>} ids */
  set(ids) {
    const next = new Set([...ids].filter((id) => this.board.stroke(id) !== null));
    if (next.size === this.#ids.size && [...next].every((id) => this.#ids.has(id))) return;
    this.#ids = next;
    this.#changed();
  }

  /** Adds `ids`, or takes them out where they were all selected already (Shift+click). */
  toggle(ids) {
    const list = [...ids];
    if (list.length === 0) return;
    if (list.every((id) => this.#ids.has(id))) this.set([...this.#ids].filter((id) => !list.includes(id)));
    else this.set([...this.#ids, ...list]);
  }

  /** Adds `ids` to what is selected. @param {Iterable<string>} ids */
  add(ids) {
    this.set([...this.#ids, ...ids]);
  }

  clear() {
    this.set([]);
  }

  /**
   * Follows a board delta: drops strokes the board no longer shows, and forgets the box if the delta may
   * have moved one. Listeners hear of it when it touched the selection.
   * @param {import('../model/board-state.js').BoardDelta} delta
   * @returns {boolean} whether it touched the selection
   */
  follow(delta) {
    if (this.#ids.size === 0) return false;
    const touched = delta.everything || [...this.#ids].some((id) => delta.strokes.has(id));
    if (!touched) return false;
    for (const id of [...this.#ids]) if (this.board.stroke(id) === null) this.#ids.delete(id);
    this.#changed();
    return true;
  }

  /** Calls `listener` after every change of the selection or of its strokes. */
  onChange(listener) {
    this.#listeners.push(listener);
  }

  #changed() {
    this.#bounds = undefined;
    for (const listener of this.#listeners) listener();
  }
}
