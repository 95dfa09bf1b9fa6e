// Spaces pushes out so that a burst of edits never trips the server's rate limit (a token bucket of 200
// packs per second; over it the server closes with 1008), as Swift's `PushPacer`.
//
// Pacing costs nothing in throughput: while pushes wait, new edits gather in the outbox, and the next pack
// planned carries all of them.

export class PushPacer {
  #tokens;
  #last;

  /**
   * @param {{rate?: number, burst?: number, now?: number}} [options] pushes per second sustained, pushes
   *   at once after a quiet spell, and the time now in milliseconds
   */
  constructor({ rate = 100, burst = 20, now = 0 } = {}) {
    if (!(rate > 0 && burst >= 1)) throw new RangeError('a pacer needs a positive rate and room for one push');
    this.rate = rate;
    this.burst = burst;
    this.#tokens = burst;
    this.#last = now;
  }

  /**
   * Takes the next push's token: how long to wait before sending it (0 when it may go now).
   * @param {number} now milliseconds, from a monotonic clock
   * @returns {number} milliseconds
   * - Complexity: O(1).
   */
  delay(now) {
    const elapsed = Math.max(now - this.#last, 0) / 1000;
    this.#last = Math.max(now, this.#last);
    this.#tokens = Math.min(this.burst, this.#tokens + elapsed * this.rate) - 1;
    return this.#tokens >= 0 ? 0 : Math.round((-this.#tokens / this.rate) * 1000);
  }
}
