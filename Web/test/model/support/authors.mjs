// Test authors and stroke builders, like Tests/InkwellBoardTests/Support/Author.swift.

import { Author } from '../../../js/model/author.js';
import { strokeId } from '../../../js/model/ids.js';

/**
 * An author with a fixed replica (`number` in the first and last byte) and a wall clock that ticks
 * one millisecond per reading, so stamps are deterministic.
 * @param {number} number 1…255
 */
export function testAuthor(number) {
  const byte = number.toString(16).padStart(2, '0');
  let wall = 1_800_000_000_000;
  return new Author({ replica: byte + '0'.repeat(28) + byte, now: () => ++wall });
}

/** A horizontal line of `count` points: parameter t sits at x = 10·t. */
export function line(count, y = 0) {
  return Array.from({ length: count }, (_, i) => [i * 10, y]);
}

/** An addStroke operation in black, width 2, by a pen (naming no brush), unless told otherwise. */
export function add(points, { colour = 0x000000ff, width = 2, pressures = null, brush = undefined } = {}) {
  const op = { op: 'addStroke', colour, width, points, pressures };
  return brush === undefined ? op : { ...op, brush };
}

/** The id of the stroke added by `change`'s operation `index`. */
export function strokeOf(change, index = 0) {
  return strokeId(change.id, index);
}
