// The hybrid logical clock, as Sources/InkwellSync/Clock/HybridLogicalClock.swift.
//
// Lamport's rule: every stamp issued is greater than every stamp this replica has issued or witnessed,
// so a change made after seeing another sorts after it whatever the wall clocks say. Wall time is passed
// in, not read, so the clock is a pure state machine and tests control time exactly.

import { MAX_COUNTER, MAX_WALL, ZERO_STAMP, compareStamps, isStamp } from './stamp.js';

/** @typedef {import('./stamp.js').Stamp} Stamp */

/**
 * A witnessed stamp far ahead of local wall time: worth a log line.
 * @typedef {{witnessed: Stamp, localWallMilliseconds: number, aheadMilliseconds: number}} Skew
 */

/** Default for `maximumForwardSkewMilliseconds`, as in Swift. */
export const DEFAULT_MAXIMUM_FORWARD_SKEW = 60_000;

export class HybridLogicalClock {
  /** @type {Stamp} */
  #latest;

  /**
   * Resumes a clock from the greatest stamp a store holds (zero for a new one).
   * @param {{latest?: Stamp, maximumForwardSkewMilliseconds?: number}} [options]
   */
  constructor({ latest = ZERO_STAMP, maximumForwardSkewMilliseconds = DEFAULT_MAXIMUM_FORWARD_SKEW } = {}) {
    this.#latest = checkedStamp(latest);
    this.maximumForwardSkewMilliseconds = maximumForwardSkewMilliseconds;
    /** What the clock had to do beyond the ordinary, for metrics and logs. */
    this.diagnostics = { counterOverflows: 0, skewedWitnesses: 0, largestSkewMilliseconds: 0, stampsAheadOfWall: 0 };
  }

  /** The greatest stamp issued or witnessed; the next stamp is greater. @returns {Stamp} */
  get latest() {
    return { ...this.#latest };
  }

  /**
   * Issues the stamp of a local event at wall time `now` (milliseconds since 1970).
   *
   * When the counter runs out within one millisecond the next millisecond is borrowed (and counted);
   * only a clock at the very last stamp throws, never wraps.
   * @param {number} now
   * @returns {Stamp}
   */
  next(now) {
    const wall = Math.min(wallMilliseconds(now), MAX_WALL);
    const latest = this.#latest;
    if (wall > latest.wall) {
      this.#latest = { wall, counter: 0 };
      return { ...this.#latest };
    }
    if (latest.wall === MAX_WALL && latest.counter === MAX_COUNTER) {
      throw new RangeError('hybrid logical clock exhausted');
    }
    if (latest.counter === MAX_COUNTER) {
      this.diagnostics.counterOverflows += 1;
      this.#latest = { wall: latest.wall + 1, counter: 0 };
    } else {
      this.#latest = { wall: latest.wall, counter: latest.counter + 1 };
    }
    if (this.#latest.wall > wall) this.diagnostics.stampsAheadOfWall += 1;
    return { ...this.#latest };
  }

  /**
   * Takes note of a stamp made elsewhere, so that every later local stamp is greater.
   * @param {Stamp} remote
   * @param {number} now local wall time, milliseconds since 1970
   * @returns {Skew | null} the skew if `remote` is further ahead of `now` than configured
   */
  witness(remote, now) {
    const stamp = checkedStamp(remote);
    if (compareStamps(stamp, this.#latest) > 0) this.#latest = { wall: stamp.wall, counter: stamp.counter };
    const local = wallMilliseconds(now);
    if (!(stamp.wall > local && stamp.wall - local > this.maximumForwardSkewMilliseconds)) return null;
    const ahead = stamp.wall - local;
    this.diagnostics.skewedWitnesses += 1;
    this.diagnostics.largestSkewMilliseconds = Math.max(this.diagnostics.largestSkewMilliseconds, ahead);
    return {
      witnessed: { wall: stamp.wall, counter: stamp.counter },
      localWallMilliseconds: local,
      aheadMilliseconds: ahead,
    };
  }
}

/** Whole non-negative milliseconds, as Swift's `UInt64(max(0, ms))`. */
function wallMilliseconds(now) {
  if (typeof now !== 'number' || Number.isNaN(now)) throw new TypeError('wall time must be a number');
  return Math.max(0, Math.floor(now));
}

function checkedStamp(stamp) {
  if (!isStamp(stamp)) throw new RangeError('not a 48-bit wall + 16-bit counter stamp');
  return stamp;
}
