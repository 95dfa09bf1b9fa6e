// How far a room's server log has been received, by the contiguity rule of the sync protocol, as Swift's
// `RoomCursor` (Sources/InkwellClient/Session/RoomCursor.swift).
//
// A room's log positions are 1, 2, 3, …, and each reaches this page either as a pack or, for its own
// pushes, as an ack, in any order across reconnects. The watermark is the highest `w` such that every
// position up to `w` was seen: subscribing after it again loses nothing. Seeing a position must mean its
// changes are stored, so a persisted watermark never runs ahead of the store.

export class RoomCursor {
  /** Positions seen beyond a gap, waiting for the gap to fill. @type {Set<number>} */
  #pending = new Set();

  /** @param {number} watermark the position stored for the room */
  constructor(watermark = 0) {
    /** Every position up to here has been seen. */
    this.watermark = watermark;
    /** The newest position the server has named for the room. */
    this.head = watermark;
  }

  /**
   * Notes that `position` was seen (its changes stored, or its push acknowledged).
   * @param {number} position
   * @returns {boolean} whether the watermark moved
   * - Complexity: amortised O(1): each position enters and leaves the pending set once.
   */
  see(position) {
    this.head = Math.max(this.head, position);
    if (position <= this.watermark) return false;
    if (position !== this.watermark + 1) {
      this.#pending.add(position);
      return false;
    }
    this.watermark = position;
    while (this.#pending.delete(this.watermark + 1)) this.watermark += 1;
    return true;
  }

  /**
   * Everything through `position` is held: a snapshot standing for it was taken in place of its packs.
   * @param {number} position
   * @returns {boolean} whether the watermark moved
   */
  rebase(position) {
    this.head = Math.max(this.head, position);
    if (position <= this.watermark) return false;
    this.watermark = position;
    for (const pending of this.#pending) if (pending <= position) this.#pending.delete(pending);
    while (this.#pending.delete(this.watermark + 1)) this.watermark += 1;
    return true;
  }

  /**
   * Notes the room's newest position, as named by a progress, packs or ack frame.
   * @param {number} head
   */
  learn(head) {
    this.head = Math.max(this.head, head);
  }

  /** Whether everything the server has named has been seen. */
  get isAtHead() {
    return this.watermark >= this.head;
  }

  /** Positions waiting beyond a gap, for tests. */
  get pending() {
    return [...this.#pending].sort((a, b) => a - b);
  }

  /** Throws if the cursor's rules are broken: for tests. */
  checkInvariants() {
    if (this.#pending.has(this.watermark + 1)) throw new Error('the position after the watermark is pending');
    for (const position of this.#pending) {
      if (position <= this.watermark + 1) throw new Error('a pending position is at or below the watermark');
      if (position > this.head) throw new Error('a pending position is beyond the head');
    }
    if (this.watermark > this.head) throw new Error('the watermark is beyond the head');
  }
}
