// The stack of visible strokes, as Sources/InkwellBoard/State/BoardState+Stack.swift: kept sorted as
// changes apply (binary search to place a stroke), so reading the drawing never sorts.

import { currentValue } from './attribute-history.js';
import { layerOf } from './board-brush.js';
import { comparePositions } from './ids.js';

/**
 * @typedef {import('./board-state.js').BoardState} BoardState
 * @typedef {import('./board-state.js').BoardDelta} BoardDelta
 * @typedef {import('./board-state.js').StackEntry} StackEntry
 */

/**
 * Stack order: highlighters beneath everything else, then by z, then by when the stroke was added.
 * @param {StackEntry} a
 * @param {StackEntry} b
 */
export function compareEntries(a, b) {
  if (a.layer !== b.layer) return a.layer - b.layer;
  if (a.z < b.z) return -1;
  if (b.z < a.z) return 1;
  return comparePositions(a.position, b.position);
}

/**
 * The first index whose entry is not less than `entry`.
 * @param {StackEntry[]} stack sorted
 * @param {StackEntry} entry
 * - Complexity: O(log n).
 */
export function insertionPoint(stack, entry) {
  let low = 0;
  let high = stack.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareEntries(stack[middle], entry) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Puts a stroke where it now belongs in the stack, or takes it out, and notes it in `delta`.
 * @param {BoardState} state
 * @param {string} id
 * @param {BoardDelta} delta
 * - Complexity: O(log strokes) to find its place, plus moving the entries above it.
 */
export function restack(state, id, delta) {
  delta.strokes.add(id);
  const wanted = stackEntry(state, id);
  const current = state.stackEntries.get(id) ?? null;
  if (sameEntry(wanted, current)) return;
  if (current !== null) {
    state.stack.splice(insertionPoint(state.stack, current), 1);
    state.stackEntries.delete(id);
  }
  if (wanted !== null) {
    state.stack.splice(insertionPoint(state.stack, wanted), 0, wanted);
    state.stackEntries.set(id, wanted);
  }
  delta.reordered = delta.reordered || (current !== null && wanted !== null);
}

/**
 * The stroke's stack entry if it should be visible now, else null.
 * @param {BoardState} state
 * @param {string} id
 * @returns {StackEntry | null}
 */
export function stackEntry(state, id) {
  const record = state.records.get(id);
  if (record === undefined || record.added === null) return null;
  const added = record.added;
  if (!state.isActive(added.position.key) || record.pieces.length === 0) return null;
  const clear = state.latestActiveClear;
  if (clear !== null && comparePositions(added.position, clear) < 0) return null;
  let z = 0;
  if (record.attributes.size > 0) {
    if (currentValue(record.attributes.get('deleted'), state.isActive) === true) return null;
    const value = currentValue(record.attributes.get('zOrder'), state.isActive);
    if (value !== undefined) z = value;
  }
  return { layer: layerOf(added.brush), z, position: added.position, id };
}

/**
 * Swift's `StackEntry ==`: the same layer, equal z (so −0 equals 0) and the same add position.
 * @param {StackEntry | null} a
 * @param {StackEntry | null} b
 */
export function sameEntry(a, b) {
  if (a === null || b === null) return a === b;
  return a.layer === b.layer && a.z === b.z && comparePositions(a.position, b.position) === 0;
}
