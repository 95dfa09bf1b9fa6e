// The state of one board, as Sources/InkwellBoard/State/BoardState.swift: a pure function of the set
// of changes applied to it. `Board` (board.js) wraps it; the functions in board-*.js work on it.

import { ZERO_STAMP } from './stamp.js';

/**
 * @typedef {import('./ids.js').Position} Position
 * Something a change did, to be revisited when it is undone or redone.
 * @typedef {(
 *   {kind: 'stroke' | 'append' | 'erase' | 'text', id: string} |
 *   {kind: 'attribute', id: string, attribute: string} |
 *   {kind: 'clear'}
 * )} Effect
 * @typedef {{layer: number, z: number, position: Position, id: string}} StackEntry `layer` 0 for a
 *   highlighter's stroke, 1 for every other element (board-brush.js)
 * @typedef {{seq: number, stroke: number, id: string}} AppendEntry an append in change `seq` to the stroke
 *   `id`, added in change `stroke` of the same replica
 * @typedef {{
 *   board: string,
 *   records: Map<string, import('./stroke-record.js').StrokeRecord>,
 *   applied: Set<string>,
 *   activity: Map<string, {value: boolean, at: Position}>,
 *   settles: Map<string, import('./board-settles.js').Settles>,
 *   inactive: Set<string>,
 *   inactiveSeqs: Map<string, Set<number>>,
 *   appends: Map<string, AppendEntry[]>,
 *   effects: Map<string, Effect[]>,
 *   clears: Position[],
 *   latestActiveClear: Position | null,
 *   stack: StackEntry[],
 *   stackEntries: Map<string, StackEntry>,
 *   isActive: (changeKey: string) => boolean,
 * }} BoardState
 */

/**
 * Before every real operation: the default "active" write that undo and redo overwrite.
 * @type {Position}
 */
export const ORIGIN = Object.freeze({
  stamp: ZERO_STAMP,
  replica: '0'.repeat(32),
  seq: 1,
  index: 0,
  key: `${'0'.repeat(32)}-1`,
});

/**
 * An empty board.
 * @param {string} board the board's name
 * @returns {BoardState}
 */
export function newBoardState(board) {
  /** @type {BoardState} */
  const state = {
    board,
    /** Everything known per stroke id, including strokes only mentioned so far. */
    records: new Map(),
    /** Every change applied (by change key), so applying one again changes nothing. */
    applied: new Set(),
    /** Undo/redo registers per target change key; a change with none is active, unless a settle says. */
    activity: new Map(),
    /** The well-formed settles of each replica. */
    settles: new Map(),
    /** Every change key that is inactive now (by its settle, or else its register), so asking is one lookup. */
    inactive: new Set(),
    /** The same, as seqs by replica: what a settle arriving may make active again. */
    inactiveSeqs: new Map(),
    /** Each replica's appends that are not void, by seq: those a settle arriving later may make void. */
    appends: new Map(),
    /** What each change touched, so that undoing it revisits exactly that. */
    effects: new Map(),
    /** Every clear, sorted; the latest active one hides strokes added before it. */
    clears: [],
    latestActiveClear: null,
    /** Visible strokes, bottom to top, sorted by (layer, z, add position). */
    stack: [],
    stackEntries: new Map(),
    isActive: (key) => !state.inactive.has(key),
  };
  return state;
}

/**
 * What one applied change altered in the drawing, so a renderer redraws only that.
 * @typedef {{strokes: Set<string>, reordered: boolean, everything: boolean}} BoardDelta
 */

/** @returns {BoardDelta} */
export function emptyDelta() {
  return { strokes: new Set(), reordered: false, everything: false };
}
