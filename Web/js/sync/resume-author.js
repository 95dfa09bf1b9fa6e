// The author of a reloaded page: the timeline it leased, resumed after its last seq, a clock after every
// stamp of its own and every other stamp the store holds (within the protocol's lead of now), and the
// user's undo history and what is left to settle rebuilt from the timeline's own changes.

import { Author, isHistoryMove, isUndoStep, noteStep, settledBy } from '../model/author.js';
import { compareStamps, ZERO_STAMP } from '../model/stamp.js';

/**
 * @param {{
 *   replica: string, lastSeq: number, board: string, changes: {id: {replica: string, seq: number},
 *   stamp: {wall: number, counter: number}, board: string, operations: object[]}[],
 *   stamps?: {wall: number, counter: number}[], now?: () => number
 * }} options `changes`: every decoded change of the room; `stamps`: those of changes kept aside from a
 *   newer schema
 * @returns {Author}
 * - Complexity: O(n log n) for n changes.
 */
export function resumeAuthor({ replica, lastSeq, board, changes, stamps = [], now }) {
  const own = changes.filter((change) => change.id.replica === replica).sort((a, b) => a.id.seq - b.id.seq);
  let latest = ZERO_STAMP;
  for (const change of own) if (compareStamps(change.stamp, latest) > 0) latest = change.stamp;
  const seq = Math.max(lastSeq, own.at(-1)?.id.seq ?? 0);
  const author = new Author({ replica, lastSeq: seq, latest, ...(now === undefined ? {} : { now }) });
  // The others' stamps as if just received: one further ahead than the protocol's lead (stored by an
  // earlier version) does not drag the clock there.
  for (const change of changes) if (change.id.replica !== replica) author.witness(change.stamp);
  for (const stamp of stamps) author.witness(stamp);
  // Replaying the timeline's steps rebuilds exactly the stacks the user left (a settle is no step, and
  // closes what it covers), and counts what is not settled yet.
  const history = author.history(board);
  const unsettled = author.unsettled(board);
  for (const change of own) {
    if (change.board !== board) continue;
    unsettled.add(change.id.seq);
    if (isHistoryMove(change.operations, 'undo')) history.undo();
    else if (isHistoryMove(change.operations, 'redo')) history.redo();
    else if (isUndoStep(change.operations)) noteStep(history, change);
    const through = settledBy(change);
    if (through !== null) author.settled(board, through);
  }
  return author;
}
