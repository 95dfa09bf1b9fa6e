// The board the tests build: changes applied in order, with the board's invariants checked after each.

import { Board } from '../../../js/model/board.js';

/**
 * @param {object[]} changes in the JSON form of Conformance/board.json
 * @param {string} [name] the board's name
 * @returns {Board}
 */
export function boardAfter(changes, name = 'main') {
  const board = new Board(name);
  for (const change of changes) {
    board.apply(change);
    board.checkInvariants();
  }
  return board;
}
