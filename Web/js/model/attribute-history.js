// Every write to one attribute of one stroke, as Sources/InkwellBoard/State/AttributeHistory.swift.
//
// All writes are kept, sorted by their place in the total order, so undoing the latest write brings
// back the one before it: the current value is the latest write whose change is active.

import { comparePositions } from './ids.js';

/** @typedef {{position: import('./ids.js').Position, value: unknown}} Write */

/**
 * Inserts a write in total order.
 * @param {Write[]} writes sorted by position
 * @param {Write} write
 * - Complexity: O(1) for the newest write, O(writes) otherwise.
 */
export function insertWrite(writes, write) {
  let index = writes.length;
  while (index > 0 && comparePositions(writes[index - 1].position, write.position) >= 0) index--;
  writes.splice(index, 0, write);
}

/**
 * The latest active write's value, or undefined when there is none.
 * @param {Write[] | undefined} writes
 * @param {(changeKey: string) => boolean} isActive
 * - Complexity: O(1) unless recent writes were undone.
 */
export function currentValue(writes, isActive) {
  if (writes === undefined) return undefined;
  for (let i = writes.length - 1; i >= 0; i--) {
    if (isActive(writes[i].position.key)) return writes[i].value;
  }
  return undefined;
}
