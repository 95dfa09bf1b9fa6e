// This page's wall clock, corrected by the server's when the two disagree by more than a second, as
// Swift's `ServerCorrectedClock` (Sources/InkwellClient/Client/ServerCorrectedClock.swift).
//
// The server refuses changes stamped more than `SyncProtocol.maximumStampLeadMilliseconds` ahead of its
// clock, and receivers keep such changes aside. A device with a wrong date would otherwise make changes
// nobody takes: stamping by the server's time (learnt from each welcome's `serverTime`) keeps its work
// flowing, and judging received stamps by it keeps a slow local clock from setting aside honest changes.

/** Disagreements up to this are left alone: the welcome's own transit time is of this order. */
export const TOLERATED_DRIFT_MILLISECONDS = 1_000;

export class ServerClock {
  #local;
  /** How far the server's clock is ahead of the local one (negative: behind), as last learnt; 0 before. */
  offset = 0;

  /** @param {() => number} [local] local wall time, milliseconds since 1970 */
  constructor(local = () => Date.now()) {
    this.#local = local;
  }

  /**
   * Takes note of a welcome's `serverTime`: the server's clock read it just now (0: the server did not say).
   * @param {number} serverTime
   */
  learn(serverTime) {
    if (!Number.isSafeInteger(serverTime) || serverTime <= 0) return;
    const difference = serverTime - this.#local();
    this.offset = Math.abs(difference) > TOLERATED_DRIFT_MILLISECONDS ? difference : 0;
  }

  /** The time now, to stamp changes by and to judge received stamps by: the server's, as far as it is known. */
  now() {
    return Math.max(0, this.#local() + this.offset);
  }
}
