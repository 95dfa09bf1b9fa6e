// What one connection learns of the room's log that a snapshot is checked against, and the snapshot parts
// it is gathering, as Swift's `SnapshotTracker` (Sources/InkwellClient/Snapshots/SnapshotTracker.swift).
// One per connection: it starts with the connection's first frame of packs.
//
// It keeps what this page held when it started (`base`: the others' timelines as far as held without a
// gap, and this page's own as far as the server acknowledged them) with the watermark it stood at, and,
// for every pack received since, its position and its author's newest seq in it. What a snapshot standing
// for position `p` must hold is then what was held before, when the watermark then was `p` or less, and
// every pack received at `p` or earlier.
//
// Unfinished parts cost memory a hostile author chooses: past `MAXIMUM_PENDING_BYTES` for the room, every
// unfinished snapshot is dropped.

import { WireError } from '../wire/errors.js';
import { toHex } from '../wire/bytes.js';
import { SnapshotAssembly } from '../wire/snapshot-assembly.js';

/**
 * @typedef {import('../wire/snapshot-part.js').SnapshotPart} SnapshotPart
 * @typedef {{assembly: SnapshotAssembly, bytes: number, positions: number[]}} Pending a snapshot whose
 *   parts are arriving: the bytes of its parts so far, and the positions they came at
 */

/** The most bytes of unfinished snapshot parts held for the room, as Swift's client holds per room. */
export const MAXIMUM_PENDING_BYTES = 512 * 1024 * 1024;

export class SnapshotTracker {
  /** @type {Map<string, number>} */
  #base;
  #baseWatermark;
  /** Each pack received since the start: its position, and its author's newest change in it. @type {{position: number, replica: string, seq: number}[]} */
  #received = [];
  /** Snapshots whose parts are arriving, by id (hex). @type {Map<string, Pending>} */
  #assemblies = new Map();
  #maximumPendingBytes;

  /**
   * @param {Map<string, number>} base what this page held when the connection started, by replica
   * @param {number} watermark the room's watermark then
   * @param {{maximumPendingBytes?: number}} [options] for tests
   */
  constructor(base, watermark, { maximumPendingBytes = MAXIMUM_PENDING_BYTES } = {}) {
    this.#base = new Map(base);
    this.#baseWatermark = watermark;
    this.#maximumPendingBytes = maximumPendingBytes;
  }

  /**
   * A pack at `position` held changes of `replica` up to `seq`.
   * @param {number} position @param {string} replica @param {number} seq
   */
  received(position, replica, seq) {
    this.#received.push({ position, replica, seq });
  }

  /**
   * What a snapshot standing for `position` must hold, as far as this connection can tell: by replica,
   * the seq through which it must hold every change.
   *
   * `baseFor`, when given, limits the base to those replicas' timelines. The base is everything held when
   * the connection started: what came through its watermark, and also what live packs past a gap brought
   * from positions after it, which this page never learnt. A rebase stands for packs this page never
   * received, so it is held to the base of this page's own timelines alone, as Swift's tracker does
   * (seed 14852 of `inkwell simulate`).
   * @param {number} position
   * @param {Set<string> | null} [baseFor]
   * @returns {Map<string, number>}
   * - Complexity: O(replicas + packs received).
   */
  required(position, baseFor = null) {
    const vector = new Map();
    if (this.#baseWatermark <= position) {
      for (const [replica, seq] of this.#base) if (baseFor === null || baseFor.has(replica)) vector.set(replica, seq);
    }
    for (const entry of this.#received) {
      if (entry.position <= position) vector.set(entry.replica, Math.max(vector.get(entry.replica) ?? 0, entry.seq));
    }
    return vector;
  }

  /**
   * Adds a part that came at `position`. Returns its snapshot once every part is here (and forgets it),
   * null while some are missing or when the part is one already held.
   * @param {SnapshotPart} part
   * @param {number} position
   * @param {number} bytes its size on the wire
   * @returns {Pending | null}
   * @throws {WireError} `invalidSnapshot` for a part its siblings disagree with; `tooLarge` when the
   *   room's unfinished parts would pass the bound (then they are all dropped)
   */
  add(part, position, bytes) {
    const id = toHex(part.cover.id);
    const known = this.#assemblies.get(id);
    const pending = known ?? { assembly: new SnapshotAssembly(part), bytes: 0, positions: [] };
    if (known !== undefined && !known.assembly.add(part)) return null;
    pending.bytes += bytes;
    pending.positions.push(position);
    let total = 0;
    for (const other of this.#assemblies.values()) total += other.bytes;
    if (known === undefined) total += pending.bytes;
    if (total > this.#maximumPendingBytes) {
      this.#assemblies.clear();
      throw WireError.tooLarge('unfinished snapshots of the room');
    }
    if (!pending.assembly.isComplete) {
      this.#assemblies.set(id, pending);
      return null;
    }
    this.#assemblies.delete(id);
    return pending;
  }

  /** The bytes of the unfinished parts held now. */
  get pendingBytes() {
    let total = 0;
    for (const pending of this.#assemblies.values()) total += pending.bytes;
    return total;
  }

  /**
   * A snapshot standing for `position` was taken: what came through it joins what this page held, so
   * later snapshots are held to it too. A snapshot taken in place of packs this page never received (a
   * rebase) stands for what they held: its cut joins as well (`taken`, by replica, this page's own
   * timelines left out), as it joins the page's frontier (store-records.js `cover`) for later connections.
   * @param {number} position
   * @param {Map<string, number>} [taken]
   */
  settled(position, taken = new Map()) {
    if (this.#baseWatermark > position) return;
    for (const entry of this.#received) {
      if (entry.position <= position) this.#base.set(entry.replica, Math.max(this.#base.get(entry.replica) ?? 0, entry.seq));
    }
    for (const [replica, seq] of taken) this.#base.set(replica, Math.max(this.#base.get(replica) ?? 0, seq));
    this.#received = this.#received.filter((entry) => entry.position > position);
    this.#baseWatermark = position;
  }
}
