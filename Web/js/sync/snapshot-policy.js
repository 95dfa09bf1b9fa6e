// When the page sends a room snapshot, as Swift's `SyncClient+Snapshots` (considerSnapshots,
// changesForNextSnapshot in Sources/InkwellClient/Snapshots/SyncClient+Snapshots.swift, and the defaults of
// Sources/InkwellClient/Client/SyncClient+Configuration.swift).
//
// A page that holds a room's whole history and may edit it sends one once enough has changed since the
// newest snapshot it heard of (sent, or checked), after a random part of a delay, so that devices caught up
// together do not all send one. Planning it is this module's; making it is snapshot-maker.js's, and the
// session does the waiting, reading and sending.

/** The changes a room must hold outside the newest snapshot known before the first is sent. */
export const SNAPSHOT_THRESHOLD = 10_000;

/** The longest a page waits (a random part of it, in milliseconds) before sending a snapshot it may send. */
export const SNAPSHOT_DELAY = 20_000;

/**
 * @typedef {{position: number, changes: number, held: number}} KnownSnapshot the newest snapshot a page
 *   heard of in a room: the position it stands for, the changes its cut stands for, and those it holds (the
 *   rest stopped mattering)
 * @typedef {{caughtUp: boolean, atHead: boolean, takesPushes: boolean}} RoomState what the connection
 *   says of the room now: the server said nothing is left to catch up, every position it named was seen,
 *   and the connection may push to it
 */

/**
 * The changes a room must hold before its next snapshot: `threshold` more than the newest one stands for,
 * and half as many again as it holds, as the server asks (of its bytes, but they grow together). A room
 * whose changes keep mattering gets snapshots that grow geometrically, so all of them together cost at most
 * about three times its last to send; one whose history stops mattering gets one every `threshold`
 * changes, each the size of what still matters.
 * @param {KnownSnapshot | null} known
 * @param {number} threshold
 */
export function changesForNextSnapshot(known, threshold) {
  return (known?.changes ?? 0) + Math.max(threshold, Math.floor((known?.held ?? 0) / 2));
}

/**
 * Whether a snapshot heard of is newer than the one known: only a later position replaces it.
 * @param {KnownSnapshot | null} known
 * @param {KnownSnapshot} heard
 */
export function isNewer(known, heard) {
  return (known?.position ?? 0) < heard.position;
}

/**
 * The snapshots one page plans: at most one at a time, and one asked for while another is planned is
 * considered again once that one is done (a snapshot planned before this page's last push was acknowledged
 * stands for a cut without it, and is not made at all while the page's own timeline is not in it). A new
 * connection forgets the plans of the last: what they were for is gone.
 */
export class SnapshotPlan {
  /** The plan under way, null for none. @type {number | null} */
  #current = null;
  #count = 0;
  #again = false;

  /** Whether a snapshot is planned and not yet sent or given up. */
  get planned() {
    return this.#current !== null;
  }

  /**
   * Plans a snapshot if one may be sent now: the room is caught up, at its head and takes pushes, and it
   * holds `held` changes, at least `changesForNextSnapshot`. While one is planned already, none is, but this
   * one is considered again when that one is done.
   * @param {RoomState & {held: number, known: KnownSnapshot | null, threshold: number | null}} state
   *   `held`: the changes held without a gap; `threshold`: null when the page never sends snapshots
   * @returns {number | null} the plan, to hand to `done`; null when none is made
   */
  consider({ caughtUp, atHead, takesPushes, held, known, threshold }) {
    if (threshold === null || !caughtUp || !atHead || !takesPushes) return null;
    if (this.#current !== null) {
      this.#again = true;
      return null;
    }
    if (held < changesForNextSnapshot(known, threshold)) return null;
    this.#current = ++this.#count;
    return this.#current;
  }

  /**
   * A plan was carried out or given up.
   * @param {number} plan
   * @returns {boolean} whether to consider another now: one was asked for meanwhile (never for a plan a new
   *   connection forgot)
   */
  done(plan) {
    if (plan !== this.#current) return false;
    this.#current = null;
    const again = this.#again;
    this.#again = false;
    return again;
  }

  /** A new connection: the plans of the last are forgotten. */
  reset() {
    this.#current = null;
    this.#again = false;
  }
}
