// How long to wait before reconnecting, as Swift's `Backoff` (Sources/InkwellClient/Support/Backoff.swift):
// exponential with full jitter, so the browsers that lost the same server do not all come back in the same
// millisecond.
//
// The ceiling starts at twice `minimum` and doubles with each failed attempt up to `maximum`; the delay is
// drawn uniformly between `minimum` and the ceiling. The floor keeps a refused connection from becoming a
// busy loop.

export class Backoff {
  /**
   * @param {{minimum?: number, maximum?: number}} [options] milliseconds
   */
  constructor({ minimum = 100, maximum = 10_000 } = {}) {
    if (!(minimum > 0 && maximum >= minimum)) throw new RangeError('backoff needs 0 < minimum <= maximum');
    this.minimum = minimum;
    this.maximum = maximum;
  }

  /**
   * The most the delay can be before attempt `attempt` (0 for the first reconnection).
   * @param {number} attempt
   * @returns {number} milliseconds
   * - Complexity: O(log(maximum / minimum)).
   */
  ceiling(attempt) {
    let ceiling = this.minimum;
    for (let step = 0; step <= Math.max(attempt, 0) && ceiling < this.maximum; step++) ceiling *= 2;
    return Math.min(ceiling, this.maximum);
  }

  /**
   * A delay in [minimum, ceiling(attempt)].
   * @param {number} attempt
   * @param {() => number} random floats in [0, 1)
   * @returns {number} milliseconds
   */
  delay(attempt, random) {
    const high = this.ceiling(attempt);
    return this.minimum + Math.floor(random() * (high - this.minimum + 1));
  }
}
