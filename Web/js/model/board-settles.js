// The settles on a board, as Sources/InkwellBoard/State/Settlements.swift and BoardState+Settle.swift:
// which one governs a change's activity, which appends they make void, and the settle an author makes
// next. See docs/ARCHITECTURE.md, "Settling".

import { changeKey } from './ids.js';
import { LIMITS } from './operation.js';

/**
 * A well-formed settle, at operation `index` of its replica's change `seq`.
 * @typedef {{seq: number, index: number, through: number, inactive: Set<number>}} Settle
 * One replica's settles: `list` by (seq, index); `reach[i]` the largest `through` of `list[0…i]`, so the
 * earliest settle covering a seq is found by binary search; `throughs` the distinct ones, ascending.
 * @typedef {{list: Settle[], reach: number[], throughs: number[]}} Settles
 * @typedef {import('./board-state.js').BoardState} BoardState
 */

/**
 * Takes in a replica's well-formed settle.
 * @param {BoardState} state
 * @param {string} replica
 * @param {Settle} settle
 * @returns {number} the largest `through` of the replica's earlier settles (0 if none): the new one governs
 *   exactly the seqs above it, through its own
 * - Complexity: O(settles of the replica).
 */
export function addSettle(state, replica, settle) {
  let settles = state.settles.get(replica);
  if (settles === undefined) {
    settles = { list: [], reach: [], throughs: [] };
    state.settles.set(replica, settles);
  }
  const { list, reach, throughs } = settles;
  let index = list.length;
  while (index > 0 && compareSettles(list[index - 1], settle) > 0) index--;
  list.splice(index, 0, settle);
  const before = index === 0 ? 0 : reach[index - 1];
  reach.length = list.length;
  for (let i = index; i < list.length; i++) reach[i] = Math.max(i === 0 ? 0 : reach[i - 1], list[i].through);
  const place = firstAtLeast(throughs, settle.through);
  if (throughs[place] !== settle.through) throughs.splice(place, 0, settle.through);
  return before;
}

/**
 * The settle that governs change `seq` of `replica`: the earliest that covers it, or null if none does.
 * @param {BoardState} state
 * @param {string} replica
 * @param {number} seq
 * @returns {Settle | null}
 * - Complexity: O(log settles of the replica).
 */
export function governingSettle(state, replica, seq) {
  const settles = state.settles.get(replica);
  if (settles === undefined) return null;
  const index = firstAtLeast(settles.reach, seq);
  return index === settles.list.length ? null : settles.list[index];
}

/**
 * Whether an append in `replica`'s change `seq` to its stroke added in change `stroke` is void: some
 * settle of the replica has `stroke ≤ through < seq`, so the stroke no longer grows.
 * @param {BoardState} state
 * @param {string} replica
 * @param {number} stroke
 * @param {number} seq
 * - Complexity: O(log settles of the replica).
 */
export function isVoidAppend(state, replica, stroke, seq) {
  const settles = state.settles.get(replica);
  if (settles === undefined) return false;
  const throughs = settles.throughs;
  const index = firstAtLeast(throughs, stroke);
  return index < throughs.length && throughs[index] < seq;
}

/**
 * Keeps an append that is not void where a settle arriving later can find it.
 * @param {BoardState} state
 * @param {string} replica
 * @param {import('./board-state.js').AppendEntry} entry
 * - Complexity: O(1) for the replica's newest append, as while drawing.
 */
export function noteAppend(state, replica, entry) {
  let entries = state.appends.get(replica);
  if (entries === undefined) {
    entries = [];
    state.appends.set(replica, entries);
  }
  let index = entries.length;
  while (index > 0 && entries[index - 1].seq > entry.seq) index--;
  entries.splice(index, 0, entry);
}

/**
 * Takes out the appends that a settle of `replica` through `through` makes void.
 * @param {BoardState} state
 * @param {string} replica
 * @param {number} through
 * @returns {Set<string>} the strokes they were appended to
 * - Complexity: O(log a) for the replica's a appends, plus those made after `through`.
 */
export function voidAppends(state, replica, through) {
  const strokes = new Set();
  const entries = state.appends.get(replica);
  if (entries === undefined) return strokes;
  let kept = firstAbove(entries, through);
  for (let i = kept; i < entries.length; i++) {
    const entry = entries[i];
    if (entry.stroke <= through) strokes.add(entry.id);
    else entries[kept++] = entry;
  }
  entries.length = kept;
  return strokes;
}

/**
 * The largest `through` of the replica's settles: every change of its up to there is settled.
 * @param {BoardState} state
 * @param {string} replica
 * @returns {number} 0 if it has none
 */
export function settledThrough(state, replica) {
  const reach = state.settles.get(replica)?.reach;
  return reach === undefined || reach.length === 0 ? 0 : reach[reach.length - 1];
}

/**
 * The settle `replica` makes to settle its changes through `through`, as Swift's
 * `BoardState.settlement(of:through:)`: it lists those of its changes on this board above its latest
 * settle that the board shows inactive, so settling changes nothing visible. Should there be more than
 * a settle may list, it settles only as far as the first that does not fit.
 * @param {BoardState} state
 * @param {string} replica
 * @param {number} through
 * @returns {{op: 'settle', through: number, inactive: number[]} | null} null when its settles reach
 *   `through` already
 * - Complexity: O(i log i) for the replica's i inactive changes.
 */
export function settlement(state, replica, through) {
  const previous = settledThrough(state, replica);
  if (through <= previous) return null;
  const inactive = [];
  for (const seq of state.inactiveSeqs.get(replica) ?? []) {
    if (seq > previous && seq <= through && state.applied.has(changeKey({ replica, seq }))) inactive.push(seq);
  }
  inactive.sort((a, b) => a - b);
  const limit = LIMITS.maximumSettledInactive;
  if (inactive.length <= limit) return { op: 'settle', through, inactive };
  return { op: 'settle', through: inactive[limit] - 1, inactive: inactive.slice(0, limit) };
}

/** Order of settles: by their change's seq, then their index in it. */
function compareSettles(a, b) {
  return a.seq - b.seq || a.index - b.index;
}

/**
 * The first index of appends sorted by seq whose seq is above `seq` (their count if none is).
 * @param {import('./board-state.js').AppendEntry[]} entries
 * @param {number} seq
 */
function firstAbove(entries, seq) {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (entries[middle].seq <= seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The first index of a nondecreasing array whose value is at least `value` (its length if none is).
 * @param {number[]} values
 * @param {number} value
 */
function firstAtLeast(values, value) {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
