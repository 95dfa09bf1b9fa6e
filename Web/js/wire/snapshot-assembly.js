// Gathers the parts of one room snapshot as they arrive, in any order and with repeats, and checks the
// whole once the last has come, as Sources/InkwellWire/Snapshot/SnapshotAssembly.swift.
//
// Each part was verified on its own (snapshot-part.js): signed, and its changes named by the cut. What only
// the whole shows is checked here: the parts agree on their claim and their signer, the snapshot's author
// is one of the timelines it holds, and together the parts hold changes of the cut each once, each
// timeline's last (when held) with the stamp the cut states. A snapshot that is cut short, or holds a
// change twice, is refused. The cut may stand for more than the parts hold: the changes it leaves out
// stopped mattering, which only a receiver that holds them can check (snapshot-review.js).

import { WireError } from './errors.js';
import { changeOrigin } from './change.js';
import { cutSeq, isSibling } from './snapshot-cover.js';

/**
 * @typedef {import('./snapshot-part.js').SnapshotPart} SnapshotPart
 * @typedef {import('./snapshot-cover.js').SnapshotCover} SnapshotCover
 * @typedef {import('./snapshot-cover.js').Cut} Cut
 * @typedef {{
 *   room: string, author: string, authorKey: Uint8Array, id: Uint8Array, position: number, cut: Cut,
 *   schemaVersion: number, changes: Uint8Array[], keys: string[], parts: Uint8Array[]
 * }} RoomSnapshot a whole snapshot, checked: `author` is the replica whose key (`authorKey`) signed every
 *   part; `changes` are the changes it holds, each inside `cut` and each once, in the order the parts held
 *   them, and `keys` theirs (`replica-seq`); `parts` the ids of its parts, by index
 */

export class SnapshotAssembly {
  /** Parts held so far, by index. @type {Map<number, SnapshotPart>} */
  #parts = new Map();

  /** @param {SnapshotPart} first */
  constructor(first) {
    this.room = first.room;
    /** The replica whose key signed the first part: every part must be its. */
    this.author = first.replica;
    /** The claim every part must repeat. */
    this.cover = first.cover;
    this.#parts.set(first.cover.part, first);
  }

  /** Whether every part has arrived. */
  get isComplete() {
    return this.#parts.size === this.cover.parts;
  }

  /** The number of parts held so far. */
  get count() {
    return this.#parts.size;
  }

  /**
   * Adds a part of this snapshot; one already held is ignored.
   * @param {SnapshotPart} part
   * @returns {boolean} whether it was new
   * @throws {WireError} `invalidSnapshot` for a part that claims something else or has another signer
   */
  add(part) {
    if (part.replica !== this.author || part.room !== this.room || !isSibling(part.cover, this.cover)) {
      throw WireError.invalidSnapshot('its parts disagree on what it holds');
    }
    if (this.#parts.has(part.cover.part)) return false;
    this.#parts.set(part.cover.part, part);
    return true;
  }

  /**
   * The whole snapshot, checked.
   * @returns {RoomSnapshot}
   * @throws {WireError} `invalidSnapshot` when parts are missing, its author holds no timeline in it, or
   *   it holds a change twice or a timeline's last with another stamp
   * - Complexity: O(changes).
   */
  assembled() {
    if (!this.isComplete) throw WireError.invalidSnapshot('parts are missing');
    const { cut } = this.cover;
    if (cutSeq(cut, this.author) === 0) throw WireError.invalidSnapshot('its author holds no timeline in it');
    const ordered = Array.from({ length: this.cover.parts }, (_, index) => /** @type {SnapshotPart} */ (this.#parts.get(index)));
    const seen = new Set();
    const changes = [];
    const keys = [];
    for (const part of ordered) {
      for (const change of part.changes) {
        const { replica, seq, stamp } = changeOrigin(change);
        const key = `${replica}-${seq}`;
        if (seen.has(key)) throw WireError.invalidSnapshot('it holds a change twice');
        seen.add(key);
        const last = cut.get(replica);
        if (last !== undefined && seq === last.seq && (stamp.wall !== last.stamp.wall || stamp.counter !== last.stamp.counter)) {
          throw WireError.invalidSnapshot("a timeline's last change has another stamp than its cut states");
        }
        changes.push(change);
        keys.push(key);
      }
    }
    return {
      room: this.room,
      author: this.author,
      authorKey: ordered[0].author,
      id: this.cover.id,
      position: this.cover.position,
      cut,
      schemaVersion: Math.max(...ordered.map((part) => part.schemaVersion)),
      changes,
      keys,
      parts: ordered.map((part) => part.id),
    };
  }
}
