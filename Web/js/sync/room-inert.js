// Which of the changes a page holds of a room stopped mattering within a cut, by the board's rule
// (board-inert.js), as Swift's `DocumentTypes.inertChanges(among:through:)`: what a snapshot may leave out,
// whether this page makes it (snapshot-maker.js) or checks another's (snapshot-review.js). Each board is
// built from every change held of it, so the rule sees all the proof there is; a change this page cannot
// read (another type, a newer schema) never stopped mattering, and a board holding one keeps all of its
// changes, since that change might make the others matter.

import { Board } from '../model/board.js';
import { changeKey } from '../model/ids.js';

/**
 * @typedef {import('./snapshot-review.js').Held} Held
 */

/**
 * The keys (`replica-seq`) of the changes among `held` that are inert within `cut`.
 * @param {Iterable<Held>} held every change held of the room (each once), read or not
 * @param {Map<string, number>} cut by replica: its changes 1 through the seq given, all of them held or
 *   left out as inert before
 * @returns {Set<string>}
 * - Complexity: O(size of the changes) to build each board, plus the rule's cost.
 */
export function inertKeys(held, cut) {
  /** The changes of each board, by its name. @type {Map<string, object[]>} */
  const boards = new Map();
  /** Boards holding a change this page cannot read. @type {Set<string>} */
  const unread = new Set();
  for (const { change, board } of held) {
    if (change === null) {
      if (board !== null) unread.add(board);
      continue;
    }
    const changes = boards.get(change.board);
    if (changes === undefined) boards.set(change.board, [change]);
    else changes.push(change);
  }
  const inert = new Set();
  for (const [name, changes] of boards) {
    if (unread.has(name)) continue;
    const board = new Board(name);
    board.applyAll(changes);
    for (const id of board.inertChanges(changes, cut)) inert.add(changeKey(id));
  }
  return inert;
}
