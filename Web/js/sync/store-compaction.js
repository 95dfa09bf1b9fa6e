// Compacting the page's store by the board's rule, as a Swift device compacts its own
// (`Store.snapshotIfNeeded` with document types, Sources/InkwellStore/Snapshots/Store+SnapshotPolicy.swift):
// the changes that stopped mattering (room-inert.js, over everything the page holds) are removed from the
// store, and the cut within which they were left out is kept (the room's `pruned`, Swift's
// `snapshot_pruned`), so a room snapshot this page sends later stands for all of it (snapshot-maker.js).
//
// The cut is the page's frontier (what it holds without a gap, with what it left out before and what a room
// snapshot it took stands for), less this browser's changes not acknowledged yet: a room snapshot stands for
// what came through a position of the server's log, and a queued change is not there yet. Inside it a
// change stays when it is queued or in a pack waiting for its ack, held for review (not on the board: as
// proof it could hide what the board shows), or one of this browser's changes not settled yet (the undo
// history a reload rebuilds replays them); and nothing goes while the page keeps aside what it cannot read
// yet, which might make the rest matter. Everything removed is inert over what is on the board, so the
// board a reload builds shows what it showed before, and a change removed that arrives again is stored and
// applied again, changes nothing shown, and goes with the next pass.
//
// A pass runs when enough change records have gathered since the last (`isCompactionDue`), one tab at a
// time (the store's `compaction` turn), and removes what it removes in one transaction (`Store.prune`).

import { settledBy } from '../model/author.js';
import { compareStamps, ZERO_STAMP } from '../model/stamp.js';
import { changeOrigin } from '../wire/change.js';
import { Frontier } from './frontier.js';
import { isRefused } from './pack-intake.js';
import { inertKeys } from './room-inert.js';
import { keptForLater } from './snapshot-maker.js';
import { readHeld } from './snapshot-review.js';

/**
 * @typedef {import('./store-records.js').Store} Store
 * @typedef {import('./store-records.js').RoomContents} RoomContents
 * @typedef {import('./store-records.js').CutEntry} CutEntry
 * @typedef {import('./store-records.js').Standing} Standing
 * @typedef {import('./snapshot-review.js').Held} Held
 * @typedef {{remove: string[], through: CutEntry[], outside: number}} CompactionPlan the keys of the stored
 *   changes to remove, the cut within which they stopped mattering (empty when none is removed), and how many
 *   change records lay outside it (past a gap, held for review, or this browser's not acknowledged yet)
 */

/** The change records a room holds before its first pass, as Swift's snapshot policy waits for 1,000 changes. */
export const COMPACTION_THRESHOLD = 1_000;

/** How much the records must grow past what the last pass kept before the next: passes cost O(records), so
 * geometric growth keeps their total cost linear in what the room ever held. */
export const COMPACTION_GROWTH = 0.5;

/**
 * Whether a room's store is due a pass: it holds at least `threshold` change records, and half as many again
 * as its last pass kept of those it could consider.
 * @param {Pick<Standing, 'changes' | 'kept'>} standing
 * @param {number} threshold
 */
export function isCompactionDue({ changes, kept }, threshold) {
  return changes >= Math.max(threshold, Math.ceil(kept * (1 + COMPACTION_GROWTH)));
}

/**
 * What a pass removes from a room's store, and the cut it records.
 * @param {RoomContents} contents everything the store holds of the room
 * @returns {CompactionPlan}
 * - Complexity: O(size of the changes) to decode them and build the board, plus the rule's cost.
 */
export function compactionPlan(contents) {
  // Nothing goes until what is aside can be read, which no growth of the store brings sooner: all count as kept.
  if (contents.aside.some(keptForLater)) return { remove: [], through: [], outside: 0 };
  const own = new Set(contents.replicas.map((record) => record.replica));
  const marked = new Set(contents.held);
  /** What is on the board (and other types' changes, held as they came), by key. @type {Map<string, Held>} */
  const input = new Map();
  /**
   * Each timeline's changes among them: seq and stamp.
   * @type {{replica: string, seq: number, stamp: import('./store-records.js').Stamp}[]}
   */
  const ids = [];
  const frontier = new Frontier();
  for (const entry of [...contents.cover, ...contents.pruned]) frontier.cover(entry.replica, entry.seq);
  const stored = new Set();
  for (const change of contents.changes) {
    // Held for review: not on the board. This browser's own are never held (room-loader.js).
    if (marked.has(change.key) && !own.has(change.replica)) continue;
    input.set(change.key, readHeld(change.bytes));
    ids.push({ replica: change.replica, seq: change.seq, stamp: change.stamp });
    stored.add(change.key);
  }
  for (const item of contents.aside) {
    if (item.kind !== 'change' || isRefused(item)) continue;
    try {
      const { replica, seq, stamp } = changeOrigin(item.bytes);
      const key = `${replica}-${seq}`;
      if (input.has(key)) continue;
      input.set(key, readHeld(item.bytes));
      ids.push({ replica, seq: Number(seq), stamp });
    } catch {
      // Not a change: nothing held.
    }
  }
  for (const id of ids) frontier.add(id);
  const cut = frontier.vector();
  /** The first seq of each timeline not acknowledged yet. @type {Map<string, number>} */
  const waiting = new Map();
  const wait = (/** @type {string} */ replica, /** @type {number} */ seq) =>
    waiting.set(replica, Math.min(waiting.get(replica) ?? Infinity, seq));
  for (const entry of contents.outbox) wait(entry.replica, entry.seq);
  for (const pack of contents.packs) for (const key of pack.changeKeys) wait(replicaOf(key), seqOf(key));
  for (const [replica, first] of waiting) {
    const seq = Math.min(cut.get(replica) ?? 0, first - 1);
    if (seq > 0) cut.set(replica, seq);
    else cut.delete(replica);
  }
  let considered = 0;
  for (const key of stored) if (keyWithin(key, cut)) considered += 1;
  const outside = contents.changes.length - considered;
  if (cut.size === 0) return { remove: [], through: [], outside };

  // This browser's changes settled, by timeline and board; and each timeline's newest, whose stamp the
  // clock resumes after.
  /** @type {Map<string, number>} */
  const settled = new Map();
  /** @type {Map<string, number>} */
  const newest = new Map();
  for (const { change } of input.values()) {
    if (change === null || !own.has(change.id.replica)) continue;
    newest.set(change.id.replica, Math.max(newest.get(change.id.replica) ?? 0, change.id.seq));
    const through = settledBy(change);
    const name = `${change.id.replica}/${change.board}`;
    if (through !== null) settled.set(name, Math.max(settled.get(name) ?? 0, through));
  }
  const remove = [];
  for (const key of inertKeys(input.values(), cut)) {
    if (!stored.has(key)) continue;
    const { change } = /** @type {Held & {change: any}} */ (input.get(key));
    const { replica, seq } = change.id;
    if (own.has(replica) && (seq > (settled.get(`${replica}/${change.board}`) ?? 0) || seq === newest.get(replica))) continue;
    remove.push(key);
  }
  if (remove.length === 0) return { remove, through: [], outside };
  return { remove, through: cutEntries(cut, ids, [...contents.cover, ...contents.pruned]), outside };
}

/**
 * One pass over a room's store, if due by `threshold` (or `force`d): read, planned and pruned while no
 * other session of the profile compacts the room.
 * @param {Store} store
 * @param {string} room
 * @param {{threshold?: number, force?: boolean, run?: <T>(work: () => Promise<T>) => Promise<T>}} [options]
 *   `run`: how the store is reached (a session queues its store work in order)
 * @returns {Promise<{removed: string[], held: number} | null>} null when none was due; `held`: the change
 *   records read
 * - Complexity: O(change records of the room), as compactionPlan.
 */
export function compactRoom(store, room, { threshold = COMPACTION_THRESHOLD, force = false, run = (work) => work() } = {}) {
  return store.exclusiveAccess(
    room,
    async () => {
      const standing = await run(() => store.loadStanding(room));
      if (!force && !isCompactionDue(standing, threshold)) return null;
      const contents = await run(() => store.loadRoom(room));
      const plan = compactionPlan(contents);
      // Pruning nothing still counts what was kept, so the next pass waits for the records to grow; those
      // outside the cut are not counted (another tab's changes waiting for their ack, say): they are not kept,
      // only not looked at yet.
      const removed = await run(() => store.prune(room, plan.remove, plan.through, plan.outside));
      return { removed, held: contents.changes.length };
    },
    'compaction',
  );
}

/**
 * A cut as the store keeps it: each timeline's seq, with the latest stamp known of its changes through it
 * (of those held, and of what was accounted for before without them).
 * @param {Map<string, number>} cut
 * @param {{replica: string, seq: number, stamp: import('./store-records.js').Stamp}[]} ids
 * @param {CutEntry[]} before
 * @returns {CutEntry[]}
 */
function cutEntries(cut, ids, before) {
  /** @type {Map<string, import('./store-records.js').Stamp>} */
  const latest = new Map();
  for (const { replica, seq, stamp } of [...ids, ...before]) {
    if (seq > (cut.get(replica) ?? 0)) continue;
    const known = latest.get(replica);
    if (known === undefined || compareStamps(known, stamp) < 0) latest.set(replica, stamp);
  }
  return [...cut].map(([replica, seq]) => ({ replica, seq, stamp: { ...(latest.get(replica) ?? ZERO_STAMP) } }));
}

/** Whether the change of a key `replica-seq` is inside `cut`. @param {string} key @param {Map<string, number>} cut */
function keyWithin(key, cut) {
  return seqOf(key) <= (cut.get(replicaOf(key)) ?? 0);
}

/** @param {string} key `replica-seq` */
function replicaOf(key) {
  return key.slice(0, key.lastIndexOf('-'));
}

/** @param {string} key `replica-seq` */
function seqOf(key) {
  return Number(key.slice(key.lastIndexOf('-') + 1));
}
