// Takes in the snapshot parts of one frame, as Swift's `PackIntake+Snapshots`
// (Sources/InkwellClient/Snapshots/PackIntake+Snapshots.swift): in frame order, each pack read tells the
// connection's tracker what a snapshot standing for its position must hold, and each part joins its
// snapshot; once a snapshot's last part is here, the whole is checked (snapshot-assembly.js) and reviewed
// against what this page holds (snapshot-review.js).
//
// A part that cannot be read (sealed with a key this page does not hold, a newer schema, a cover that
// does not hold), that disagrees with its siblings, that belongs to a rebase onto another position, or
// that would pass the room's bound on unfinished parts is dropped, with its reason: it is never applied,
// and its snapshot is never taken. Its position counts as seen all the same, as a refused pack's does.

import { WireError } from '../wire/errors.js';
import { readHeld, reviewSnapshot } from './snapshot-review.js';

/**
 * @typedef {import('./pack-intake.js').Intake} Intake
 * @typedef {import('./snapshot-tracker.js').SnapshotTracker} SnapshotTracker
 * @typedef {import('./snapshot-review.js').Verdict} Verdict
 * @typedef {import('./snapshot-review.js').Held} Held
 * @typedef {import('../wire/snapshot-assembly.js').RoomSnapshot} RoomSnapshot
 * @typedef {{id: Uint8Array, author: string, position: number, snapshot: RoomSnapshot | null,
 *   positions: number[], verdict: Verdict}} SnapshotOutcome a snapshot whose last part came: `snapshot`
 *   null when the whole did not hold together (then the verdict is a refusal); `positions` those of its parts
 * @typedef {{position: number, reason: string}} DroppedPart
 */

/**
 * @param {Intake} intake a frame's packs, read (readPacks or readRebase)
 * @param {{
 *   tracker: SnapshotTracker, rebase: number | null, held: (keys: string[]) => Promise<Map<string, Uint8Array>>,
 *   holdings: () => Promise<Map<string, Held>>, own: Set<string>, acknowledged: Set<string>,
 *   ownMade?: () => Promise<Map<string, number>>
 * }} context `rebase`: the position a rebase frame says its snapshot stands for (null for a packs frame);
 *   `held`: this page's bytes of the changes it holds among `keys`; `holdings`: every change it holds of
 *   the room, read once for the frame's first whole snapshot; `own` and `acknowledged` as reviewSnapshot's;
 *   `ownMade`: the last seq made on each of `own`, read after `held` (so a change of its own left out since
 *   is one it made)
 * @returns {Promise<{outcomes: SnapshotOutcome[], dropped: DroppedPart[]}>}
 */
export async function takeSnapshots(intake, { tracker, rebase, held, holdings, own, acknowledged, ownMade = async () => new Map() }) {
  const steps = [...intake.received.map((pack) => ({ pack, part: null })), ...intake.parts.map((part) => ({ pack: null, part }))];
  steps.sort((a, b) => (a.pack ?? a.part).index - (b.pack ?? b.part).index);
  /** @type {SnapshotOutcome[]} */
  const outcomes = [];
  /** @type {DroppedPart[]} */
  const dropped = [];
  /** Changes of snapshots taken in this frame, not stored yet. @type {Map<string, Uint8Array>} */
  const taken = new Map();
  /**
   * What this page holds of the room, with what the snapshots taken in this frame brought.
   * @type {Map<string, Held> | null}
   */
  let holding = null;
  for (const { pack, part: received } of steps) {
    if (pack !== null) {
      tracker.received(pack.position, pack.replica, pack.seq);
      continue;
    }
    const { position, bytes, part, error } = /** @type {import('./pack-intake.js').ReceivedPart} */ (received);
    let pending;
    try {
      if (part === null) throw /** @type {WireError} */ (error);
      if (rebase !== null && part.cover.position !== rebase) {
        throw WireError.invalidSnapshot(`a rebase to ${rebase} carries a part standing for ${part.cover.position}`);
      }
      pending = tracker.add(part, position, bytes.length);
    } catch (failure) {
      if (!(failure instanceof WireError)) throw failure;
      dropped.push({ position, reason: failure.message });
      continue;
    }
    if (pending === null) continue;
    const { cover, author } = pending.assembly;
    let snapshot;
    try {
      snapshot = pending.assembly.assembled();
    } catch (failure) {
      if (!(failure instanceof WireError)) throw failure;
      const verdict = /** @type {Verdict} */ ({ accepted: false, reason: failure.message, missingOwn: [] });
      outcomes.push({ id: cover.id, author, position: cover.position, snapshot: null, positions: pending.positions, verdict });
      continue;
    }
    const mine = await held(snapshot.keys);
    const made = await ownMade();
    holding ??= await holdings();
    // Decoded only for a second snapshot in the frame: a new device's first brings every change.
    for (const [key, bytes] of taken) if (!holding.has(key)) holding.set(key, readHeld(bytes));
    const verdict = reviewSnapshot(snapshot, {
      held: (key) => taken.get(key) ?? mine.get(key),
      holdings: holding,
      // A rebase is held to this page's own timelines of what it held before the connection.
      required: tracker.required(snapshot.position, rebase === null ? null : own),
      own,
      acknowledged,
      ownMade: made,
    });
    if (verdict.accepted) {
      // A rebase stands in for packs this page never received: later snapshots must stand for its cut too.
      const stoodFor = new Map();
      if (rebase !== null) for (const [replica, { seq }] of snapshot.cut) if (!own.has(replica)) stoodFor.set(replica, seq);
      tracker.settled(snapshot.position, stoodFor);
      for (const change of verdict.fresh) taken.set(change.key, change.bytes);
    }
    outcomes.push({ id: snapshot.id, author, position: snapshot.position, snapshot, positions: pending.positions, verdict });
  }
  return { outcomes, dropped };
}
