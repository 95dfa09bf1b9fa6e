// What this page holds of each timeline of a room: for each replica, the seq through which it holds every
// change, or accounts for it without holding it (what Swift's `Store.frontier` reads from its log, which
// moves over rows compacted away and over what a room snapshot taken stands for). A room snapshot is held
// to it: what the page held before a snapshot's position must be inside the snapshot (snapshot-tracker.js).
//
// Changes arrive out of order (a gap is filled by a later pack), so seqs past a gap wait apart until it
// fills, as the room cursor's positions do.

export class Frontier {
  /** By replica: every seq through `through` is held; `beyond` holds those past a gap. @type {Map<string, {through: number, beyond: Set<number>}>} */
  #timelines = new Map();

  /**
   * Notes that the change `replica`/`seq` is held.
   * @param {{replica: string, seq: number}} id
   * - Complexity: amortised O(1): each seq enters and leaves `beyond` once.
   */
  add({ replica, seq }) {
    const timeline = this.#timeline(replica);
    if (seq > timeline.through + 1) timeline.beyond.add(seq);
    else this.cover(replica, seq);
  }

  /**
   * Notes that the changes of `replica` 1 through `seq` are accounted for without being held: left out
   * as inert by this page's compaction, or stood for by a room snapshot it took (store-records.js
   * `pruned`, `cover`), so those past them are no longer past a gap.
   * @param {string} replica @param {number} seq
   * - Complexity: O(seqs past the gap that it closes).
   */
  cover(replica, seq) {
    const timeline = this.#timeline(replica);
    if (seq <= timeline.through) return;
    // Only a jump past a gap can pass seqs waiting beyond it: the next seq alone stays amortised O(1).
    if (seq > timeline.through + 1) for (const held of timeline.beyond) if (held <= seq) timeline.beyond.delete(held);
    timeline.through = seq;
    while (timeline.beyond.delete(timeline.through + 1)) timeline.through += 1;
  }

  /** The timeline of `replica`, made empty the first time. @param {string} replica */
  #timeline(replica) {
    let timeline = this.#timelines.get(replica);
    if (timeline === undefined) {
      timeline = { through: 0, beyond: new Set() };
      this.#timelines.set(replica, timeline);
    }
    return timeline;
  }

  /**
   * Whether any change is held past a gap in its timeline: it came at a position this page cannot place,
   * so the page checks no room snapshot meanwhile (one standing for that position, without the change,
   * would let the server drop its pack), as Swift's `SyncClient` does.
   */
  get hasGap() {
    for (const { beyond } of this.#timelines.values()) if (beyond.size > 0) return true;
    return false;
  }

  /** The seq through which every change of `replica` is held (0 for none). @param {string} replica */
  through(replica) {
    return this.#timelines.get(replica)?.through ?? 0;
  }

  /**
   * Each replica's seq held through, for those with any.
   * @returns {Map<string, number>}
   * - Complexity: O(replicas).
   */
  vector() {
    const vector = new Map();
    for (const [replica, { through }] of this.#timelines) if (through > 0) vector.set(replica, through);
    return vector;
  }
}
