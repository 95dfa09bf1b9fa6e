// At most one call per interval, always ending with the latest value: presence moves at ≈ 15 frames a
// second however fast the pointer does (ink in progress at one frame per animation frame), and the last
// position is never lost.

/**
 * @typedef {{now: () => number, setTimeout: (f: () => void, ms: number) => any, clearTimeout: (t: any) => void}} Timers
 */

/** @template T */
export class Throttle {
  #interval;
  #call;
  #timers;
  #last = -Infinity;
  /** @type {{value: T} | null} */
  #waiting = null;
  #timer = null;

  /**
   * @param {number | ((value: T) => number)} interval milliseconds between calls, at least: the same for
   *   every value, or the value's own (a call waits out the interval of the value it carries)
   * @param {(value: T) => void} call
   * @param {Timers} timers inject fake timers in tests
   */
  constructor(interval, call, timers) {
    this.#interval = interval;
    this.#call = call;
    this.#timers = timers;
  }

  /** Calls now if the interval has passed, else once it has, with the latest value submitted. @param {T} value */
  submit(value) {
    const interval = typeof this.#interval === 'function' ? this.#interval(value) : this.#interval;
    const wait = this.#last + interval - this.#timers.now();
    if (wait <= 0 && this.#timer === null) {
      this.#fire(value);
      return;
    }
    this.#waiting = { value };
    this.#timer ??= this.#timers.setTimeout(() => {
      this.#timer = null;
      const waiting = this.#waiting;
      this.#waiting = null;
      if (waiting !== null) this.#fire(waiting.value);
    }, Math.max(wait, 0));
  }

  /** Drops a waiting call. */
  cancel() {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#waiting = null;
  }

  /** @param {T} value */
  #fire(value) {
    this.#last = this.#timers.now();
    this.#call(value);
  }
}
