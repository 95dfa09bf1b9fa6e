// Which changes are active, as `activityByRule` and `refreshActivity` in
// Sources/InkwellBoard/State/BoardState+Settle.swift. A change that one of its replica's settles covers is
// as the governing settle says; any other as its undo register says. The inactive ones are kept as a set,
// brought up to date on every register write and settle, so that `isActive` is one lookup.

import { governingSettle } from './board-settles.js';
import { changeKey } from './ids.js';

/**
 * @typedef {import('./board-state.js').BoardState} BoardState
 * @typedef {import('./board-settles.js').Settle} Settle
 */

/**
 * Whether change `seq` of `replica` is inactive, worked out from the settles and registers.
 * @param {BoardState} state
 * @param {string} replica
 * @param {number} seq
 * - Complexity: O(log settles of the replica).
 */
export function isInactive(state, replica, seq) {
  const settle = governingSettle(state, replica, seq);
  if (settle !== null) return settle.inactive.has(seq);
  const register = state.activity.get(changeKey({ replica, seq }));
  return register !== undefined && !register.value;
}

/**
 * Brings the inactive set up to date for one change.
 * @param {BoardState} state
 * @param {string} replica
 * @param {number} seq
 * @returns {boolean} whether its activity changed: then what it did must be revisited
 */
export function refreshActivity(state, replica, seq) {
  const key = changeKey({ replica, seq });
  const inactive = isInactive(state, replica, seq);
  if (inactive === state.inactive.has(key)) return false;
  let seqs = state.inactiveSeqs.get(replica);
  if (inactive) {
    state.inactive.add(key);
    if (seqs === undefined) {
      seqs = new Set();
      state.inactiveSeqs.set(replica, seqs);
    }
    seqs.add(seq);
  } else {
    state.inactive.delete(key);
    seqs?.delete(seq);
  }
  return true;
}

/**
 * Brings the inactive set up to date after a settle of `replica` arrived that governs its seqs in
 * `(from, settle.through]`: only those it lists, and those inactive until now, can change.
 * @param {BoardState} state
 * @param {string} replica
 * @param {Settle} settle
 * @param {number} from
 * @returns {string[]} the keys of the changes whose activity changed
 * - Complexity: O(listed + inactive seqs of the replica).
 */
export function settleActivity(state, replica, settle, from) {
  const candidates = [];
  for (const seq of settle.inactive) if (seq > from) candidates.push(seq);
  for (const seq of state.inactiveSeqs.get(replica) ?? []) {
    if (seq > from && seq <= settle.through && !settle.inactive.has(seq)) candidates.push(seq);
  }
  const changed = [];
  for (const seq of candidates) if (refreshActivity(state, replica, seq)) changed.push(changeKey({ replica, seq }));
  return changed;
}
