// The hybrid logical clock, as Sources/InkwellSync/Clock/HybridLogicalClock.swift.
//
// Lamport's rule: every stamp issued is greater than every stamp this replica has issued or witnessed,
// so a change made after seeing another sorts after it whatever the wall clocks say. Wall time is passed
// in, not read, so the clock is a pure state machine and tests control time exactly.
//
// No remote stamp can stop it: one further ahead of `now` than the protocol's lead (5 minutes) is not
// witnessed at all (its change is kept aside until the clock catches up, see sync/pack-intake.js), so
// the clock can only reach the last stamp if the wall clock itself reads the year 10889; and even then
// `next` does not throw.

import { SyncProtocol } from '../wire/limits.js';
import { MAX_COUNTER, MAX_WALL, ZERO_STAMP, compareStamps, isStamp } from './stamp.js';

/** @typedef {import('./stamp.js').Stamp} Stamp */

/**
 * A witnessed stamp far ahead of local wall time: worth a log line. `ignored`: it was beyond the lead,
 * and the clock did not move.
 * @typedef {{witnessed: Stamp, localWallMilliseconds: number, aheadMilliseconds: number, ignored: boolean}} Skew
 */

/** Default for `maximumForwardSkewMilliseconds`, as in Swift. */
export const DEFAULT_MAXIMUM_FORWARD_SKEW = 60_000;

export class HybridLogicalClock {
  /** @type {Stamp} */
  #latest;

  /**
   * Resumes a clock from the greatest stamp a store holds (zero for a new one).
   * @param {{latest?: Stamp, maximumForwardSkewMilliseconds?: number, maximumLeadMilliseconds?: number}} [options]
   *   `maximumLeadMilliseconds`: stamps further ahead of `now` than this are not witnessed
   */
  constructor({
    latest = ZERO_STAMP,
    maximumForwardSkewMilliseconds = DEFAULT_MAXIMUM_FORWARD_SKEW,
    maximumLeadMilliseconds = SyncProtocol.maximumStampLeadMilliseconds,
  } = {}) {
    this.#latest = checkedStamp(latest);
    this.maximumForwardSkewMilliseconds = maximumForwardSkewMilliseconds;
    this.maximumLeadMilliseconds = maximumLeadMilliseconds;
    /** What the clock had to do beyond the ordinary, for metrics and logs. */
    this.diagnostics = {
      counterOverflows: 0,
      skewedWitnesses: 0,
      largestSkewMilliseconds: 0,
      stampsAheadOfWall: 0,
      ignoredWitnesses: 0,
      exhausted: 0,
    };
  }

  /** The greatest stamp issued or witnessed; the next stamp is greater. @returns {Stamp} */
  get latest() {
    return { ...this.#latest };
  }

  /**
   * Issues the stamp of a local event at wall time `now` (milliseconds since 1970).
   *
   * When the counter runs out within one millisecond the next millisecond is borrowed (and counted). A
   * clock at the very last stamp gives it again (counted in `exhausted`) rather than throw or wrap: changes
   * with equal stamps still have a total order, by replica and seq.
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
      this.diagnostics.exhausted += 1;
      return { ...latest };
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
   * Takes note of a stamp made elsewhere, so that every later local stamp is greater; unless it is further
   * ahead of `now` than `maximumLeadMilliseconds`: then the clock does not move, and the report says so.
   * Never throws for a stamp (every 64-bit value is one, up to wall 2^48 − 1 and counter 65535).
   * @param {Stamp} remote
   * @param {number} now wall time, milliseconds since 1970 (the server's, as far as it is known)
   * @returns {Skew | null} the skew if `remote` is further ahead of `now` than configured (always when ignored)
   * @throws {RangeError} for a value that is not a stamp at all (a bug, not a remote's doing)
   */
  witness(remote, now) {
    const stamp = checkedStamp(remote);
    const local = wallMilliseconds(now);
    const ahead = stamp.wall - local;
    const ignored = ahead > this.maximumLeadMilliseconds;
    if (ignored) this.diagnostics.ignoredWitnesses += 1;
    else if (compareStamps(stamp, this.#latest) > 0) this.#latest = { wall: stamp.wall, counter: stamp.counter };
    if (!ignored && !(ahead > 0 && ahead > this.maximumForwardSkewMilliseconds)) return null;
    this.diagnostics.skewedWitnesses += 1;
    this.diagnostics.largestSkewMilliseconds = Math.max(this.diagnostics.largestSkewMilliseconds, ahead);
    return {
      witnessed: { wall: stamp.wall, counter: stamp.counter },
      localWallMilliseconds: local,
      aheadMilliseconds: ahead,
      ignored,
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
