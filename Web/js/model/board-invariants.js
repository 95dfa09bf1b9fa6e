// Internal consistency of a board, as Sources/InkwellBoard/State/BoardState+Invariants.swift: run by the tests.

import { compareEntries, sameEntry, stackEntry } from './board-stack.js';

/**
 * Throws if the stack does not hold exactly the strokes that should be visible, sorted, with matching
 * index entries, or if a record's derived arrays disagree.
 * @param {import('./board-state.js').BoardState} state
 * - Complexity: O(strokes · log strokes).
 */
export function checkBoardInvariants(state) {
  const { stack, stackEntries, records } = state;
  for (let i = 1; i < stack.length; i++) check(compareEntries(stack[i - 1], stack[i]) < 0, 'stack not strictly sorted');
  check(stack.length === stackEntries.size, 'stack and its index disagree');
  for (const entry of stack) check(stackEntries.get(entry.id) === entry, 'stack entry not indexed');
  for (const id of records.keys()) {
    check(sameEntry(stackEntry(state, id), stackEntries.get(id) ?? null), `stroke ${id} stacked wrongly`);
  }
  for (const record of records.values()) {
    check(record.pressures === null || record.pressures.length === record.points.length, 'pressure count');
    check(record.added !== null || record.points.length === 0, 'points laid out before the add arrived');
  }
}

function check(condition, message) {
  if (!condition) throw new Error(`board invariant violated: ${message}`);
}
