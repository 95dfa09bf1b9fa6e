// Internal consistency of a board, as Sources/InkwellBoard/State/BoardState+Invariants.swift: run by the tests.

import { isInactive } from './board-activity.js';
import { isVoidAppend } from './board-settles.js';
import { compareEntries, sameEntry, stackEntry } from './board-stack.js';
import { computeShown } from './box-text.js';
import { changeKey, parseStrokeId } from './ids.js';
import { isBox, isText } from './stroke-record.js';

/**
 * Throws if the stack does not hold exactly the strokes that should be visible, sorted, with matching
 * index entries, if a record's derived arrays disagree, if a box is not its one point and piece or the
 * text a text box shows is stale, if the inactive set is not what the settles and registers say, or if a
 * void append was kept.
 * @param {import('./board-state.js').BoardState} state
 * - Complexity: O(strokes · log strokes + registers + settled seqs).
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
    if (isBox(record)) checkBox(state, record);
  }
  checkActivity(state);
  checkAppends(state);
}

/**
 * A box (text or image) is its corner alone, in one piece; what a text box shows, if worked out, is what
 * shows now.
 */
function checkBox(state, record) {
  const [piece] = record.pieces;
  check(record.points.length === 1 && record.pressures === null, `box ${record.id} is not one point`);
  check(record.pieces.length === 1 && piece[0] === 0 && piece[1] === 0, `box ${record.id} is not one piece`);
  if (!isText(record)) return;
  const shown = record.text?.shown ?? null;
  if (shown === null) return;
  const now = computeShown(record.text, state.isActive);
  const same = (a, b) => a.scalar === b.scalar && a.anchor.run === b.anchor.run && a.anchor.offset === b.anchor.offset;
  check(now.length === shown.length && now.every((c, i) => same(c, shown[i])), `box ${record.id} shows stale text`);
}

/** The inactive set holds exactly the changes that the settles or registers make inactive. */
function checkActivity(state) {
  const asked = new Map();
  const ask = (replica, seq) => asked.set(changeKey({ replica, seq }), { replica, seq });
  for (const key of state.activity.keys()) ask(...splitKey(key));
  for (const [replica, settles] of state.settles) {
    for (const settle of settles.list) for (const seq of settle.inactive) ask(replica, seq);
  }
  for (const key of state.inactive) ask(...splitKey(key));
  for (const [key, { replica, seq }] of asked) {
    check(state.inactive.has(key) === isInactive(state, replica, seq), `change ${key} has the wrong activity`);
  }
  let count = 0;
  for (const [replica, seqs] of state.inactiveSeqs) {
    for (const seq of seqs) check(state.inactive.has(changeKey({ replica, seq })), 'inactive seqs and keys disagree');
    count += seqs.size;
  }
  check(count === state.inactive.size, 'inactive seqs and keys disagree');
}

/** No record keeps a void append, and the index of appends holds exactly the ones kept. */
function checkAppends(state) {
  let kept = 0;
  for (const record of state.records.values()) {
    const stroke = parseStrokeId(record.id);
    for (const append of record.appends) {
      check(!isVoidAppend(state, stroke.replica, stroke.seq, append.seq), `void append kept on ${record.id}`);
    }
    kept += record.appends.length;
  }
  let indexed = 0;
  for (const entries of state.appends.values()) {
    for (let i = 1; i < entries.length; i++) check(entries[i - 1].seq <= entries[i].seq, 'appends not sorted by seq');
    indexed += entries.length;
  }
  check(kept === indexed, 'records and the index of appends disagree');
}

/** @param {string} key @returns {[string, number]} */
function splitKey(key) {
  const [replica, seq] = key.split('-');
  return [replica, Number(seq)];
}

function check(condition, message) {
  if (!condition) throw new Error(`board invariant violated: ${message}`);
}
