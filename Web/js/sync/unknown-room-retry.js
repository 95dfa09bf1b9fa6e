// When to ask again for a room the server does not know (`noSuchRoom`), as Swift's
// `SyncClient.askAgainLater` (Sources/InkwellClient/Client/SyncClient+Actions.swift): a board made offline
// reaches the server only when its maker next connects (or the server was restored from an older copy),
// so a link to it is not wrong, only early. The connection stays open and the subscription is sent again
// after a jittered delay that doubles from 1 s up to a minute; an answer that grants access, or the
// network coming back (the new connection subscribes at once), starts the count again.

/** The first delay's ceiling and the longest delay, in milliseconds. */
export const UNKNOWN_ROOM_BACKOFF = Object.freeze({ first: 1_000, longest: 60_000 });

/**
 * The delay before asking again after `attempt` refusals in a row (0 for the first): a ceiling of
 * `first` × 2^attempt up to `longest`, and a delay drawn in its upper half, so the pages of one link do
 * not all ask in the same millisecond and none asks sooner than half the ceiling.
 * @param {number} attempt
 * @param {() => number} random floats in [0, 1)
 * @param {{first?: number, longest?: number}} [backoff] milliseconds
 * @returns {number} milliseconds
 */
export function unknownRoomDelay(attempt, random, { first = UNKNOWN_ROOM_BACKOFF.first, longest = UNKNOWN_ROOM_BACKOFF.longest } = {}) {
  const doublings = Math.min(Math.max(attempt, 0), 30);
  const ceiling = Math.min(first * 2 ** doublings, longest);
  return Math.round(ceiling * (0.5 + 0.5 * random()));
}

/**
 * One room's retries: `refused` schedules the next request, `granted` and `reset` start over. Timers are
 * injected, so tests run it on a fake clock.
 */
export class UnknownRoomRetry {
  #timers;
  #random;
  #backoff;
  #ask;
  #attempts = 0;
  #timer = null;

  /**
   * @param {{
   *   ask: () => void,
   *   timers: {setTimeout: (f: () => void, ms: number) => any, clearTimeout: (t: any) => void},
   *   random: () => number,
   *   backoff?: {first?: number, longest?: number}
   * }} options `ask`: sends the subscription again
   */
  constructor({ ask, timers, random, backoff = UNKNOWN_ROOM_BACKOFF }) {
    this.#ask = ask;
    this.#timers = timers;
    this.#random = random;
    this.#backoff = backoff;
  }

  /** Refusals in a row since the last grant or reset. */
  get attempts() {
    return this.#attempts;
  }

  /** Whether a request is scheduled. */
  get scheduled() {
    return this.#timer !== null;
  }

  /**
   * The server said it has no such room: asks again after the next delay.
   * @returns {number} the delay, in milliseconds
   */
  refused() {
    this.cancel();
    const delay = unknownRoomDelay(this.#attempts, this.#random, this.#backoff);
    this.#attempts += 1;
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = null;
      this.#ask();
    }, delay);
    return delay;
  }

  /** The room was found: the next refusal (a restored server) waits the shortest delay again. */
  granted() {
    this.reset();
  }

  /** Starts over (the network came back: its new connection subscribes at once), with nothing scheduled. */
  reset() {
    this.cancel();
    this.#attempts = 0;
  }

  /** Drops the scheduled request (the connection ended: the next one subscribes on its own). */
  cancel() {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
