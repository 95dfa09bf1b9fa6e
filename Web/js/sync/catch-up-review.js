// Review of what arrived while away. When a page comes back after being offline or paused for a while,
// the catch-up may bring a lot of other people's work at once; rather than merge it behind the user's
// back, the session holds it: stored and counted as received like any change (so the watermark moves on
// and the server never sends it again), kept out of the live board until the user merges it.
//
// Only the catch-up after a long gap is held: live changes, changes of this browser's own timelines, and
// the first download of a room never seen before are merged at once, as always.

import { strokesContinued } from './edit-count.js';

/** How long away (offline or paused), in milliseconds, before the catch-up is held for review. */
export const REVIEW_AFTER = 30_000;

/** How often a live session notes that it is live, so a reload knows how long it was away. */
export const LIVE_HEARTBEAT = 10_000;

/**
 * Whether a catch-up starting at `now` is held for review.
 * @param {{liveAt: number | null, now: number, after?: number}} facts `liveAt`: the last time this room
 *   was live on this device (connected and caught up), null if never: a first download is never held
 * @returns {boolean}
 */
export function holdsCatchUp({ liveAt, now, after = REVIEW_AFTER }) {
  return liveAt !== null && Number.isFinite(after) && now - liveAt >= after;
}

/** The key a store knows a change by. @param {{id: {replica: string, seq: number}}} change */
export function changeKey(change) {
  return `${change.id.replica}-${change.id.seq}`;
}

/**
 * @typedef {{id: {replica: string, seq: number}, stamp: {wall: number, counter: number}, board: string,
 *   operations: object[]}} Change
 * @typedef {{replica: string, count: number}} HeldAuthor
 */

/** The changes held for review, in the order they arrived. */
export class HeldChanges {
  /** @type {Map<string, Change>} */
  #changes = new Map();
  /** `edits`, kept until a change is held or handed over: the session reads it at every status. @type {number | null} */
  #edits = null;

  /** The number of changes held. */
  get size() {
    return this.#changes.size;
  }

  /** The number of edits held: a long stroke saved while drawn is one (edit-count.js). */
  get edits() {
    if (this.#edits === null) {
      this.#edits = 0;
      for (const change of this.#changes.values()) if (!this.#continues(change)) this.#edits += 1;
    }
    return this.#edits;
  }

  /**
   * Holds a change (once). @param {Change} change
   * @returns {boolean} whether it was new here
   */
  add(change) {
    const key = changeKey(change);
    if (this.#changes.has(key)) return false;
    this.#changes.set(key, change);
    this.#edits = null;
    return true;
  }

  /** @param {string} key */
  has(key) {
    return this.#changes.has(key);
  }

  /** The changes, oldest first. @returns {Change[]} */
  changes() {
    return [...this.#changes.values()];
  }

  /**
   * Who made them: one entry per timeline, most edits first (then in order of arrival); `count` is in
   * edits (`edits`).
   * @returns {HeldAuthor[]}
   * - Complexity: O(n + a log a) for n changes of a authors.
   */
  authors() {
    /** @type {Map<string, number>} */
    const counts = new Map();
    for (const change of this.#changes.values()) {
      counts.set(change.id.replica, (counts.get(change.id.replica) ?? 0) + (this.#continues(change) ? 0 : 1));
    }
    const order = [...counts.keys()];
    return [...counts]
      .map(([replica, count]) => ({ replica, count }))
      .sort((a, b) => b.count - a.count || order.indexOf(a.replica) - order.indexOf(b.replica));
  }

  /** Whether `change` only carries on strokes that held changes began. @param {Change} change */
  #continues(change) {
    const begun = strokesContinued(change);
    return begun !== null && begun.every((key) => this.#changes.has(key));
  }

  /** Hands every change over and holds none. @returns {Change[]} */
  take() {
    const changes = this.changes();
    this.#changes.clear();
    this.#edits = null;
    return changes;
  }
}
