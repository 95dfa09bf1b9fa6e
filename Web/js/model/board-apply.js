// Applying changes, as Sources/InkwellBoard/State/BoardState+Apply.swift.
//
// Every operation commutes with every other: adds are a grow-only set, appends are ordered by the
// creator's seq, erases are a union, attributes and undo are last-writer-wins registers ordered by
// position, clears hide what was added before the latest active one, and settles fix activity and end
// appends whichever comes first. An operation on a stroke that has not arrived is kept in the stroke's
// record and takes effect when the stroke does. A text box is a stroke record whose add is an `addText`;
// its inserts make a set of runs and its deletes a union, both kept per box like erases. An image is a
// stroke record whose add is an `addImage`, and nothing more: its bytes are the page's to fetch.

import { insertWrite } from './attribute-history.js';
import { refreshActivity, settleActivity } from './board-activity.js';
import { addSettle, isVoidAppend, noteAppend, voidAppends } from './board-settles.js';
import { restack } from './board-stack.js';
import { ORIGIN, emptyDelta } from './board-state.js';
import { deleteFrom, invalidateText, typeInto } from './box-text.js';
import { changeKey, comparePositions, parseChangeId, position, strokeId } from './ids.js';
import { readOperation } from './operation.js';
import { isStamp } from './stamp.js';
import { appendToRecord, dropAppendsAfter, layOutPoints, newRecord, recomputeVisibility } from './stroke-record.js';

/** The colour an image's add carries, as Swift's (`Colour.black`): the canonical encoding writes it. */
const BLACK = 0x000000ff;

/**
 * @typedef {import('./board-state.js').BoardState} BoardState
 * @typedef {import('./board-state.js').BoardDelta} BoardDelta
 * @typedef {import('./board-state.js').Effect} Effect
 * @typedef {import('./ids.js').Position} Position
 */

/**
 * Applies a change; applying it again, or a change for another board, does nothing.
 *
 * Malformed operations (bad sizes, non-finite numbers, appends by anyone but the creator, undo of
 * someone else's change, a settle reaching its own change) and unknown ones are ignored identically on
 * every replica, and so are appends a settle made void. A change whose id or stamp is malformed is not
 * applied at all.
 * @param {BoardState} state
 * @param {any} change the JSON form `{id, stamp, board, operations}`
 * @returns {BoardDelta}
 * - Complexity: O(size of the change) plus O(log strokes) per restacked stroke; O(strokes) for a clear
 *   or for undoing one; a settle revisits the changes whose activity it changes and the strokes whose
 *   appends it voids.
 */
export function applyChange(state, change) {
  const delta = emptyDelta();
  if (change === null || typeof change !== 'object' || change.board !== state.board) return delta;
  const id = parseChangeId(change.id);
  if (id === null || !isStamp(change.stamp) || !Array.isArray(change.operations)) return delta;
  const key = changeKey(id);
  if (state.applied.has(key)) return delta;
  state.applied.add(key);
  const stamp = { wall: change.stamp.wall, counter: change.stamp.counter };
  change.operations.forEach((op, index) => {
    const operation = readOperation(op);
    if (operation !== null) applyOperation(state, operation, position(stamp, id, index), delta);
  });
  return delta;
}

/**
 * @param {BoardState} state
 * @param {import('./operation.js').Operation} operation
 * @param {Position} at
 * @param {BoardDelta} delta
 */
function applyOperation(state, operation, at, delta) {
  switch (operation.kind) {
    case 'addStroke': {
      const id = strokeId(at, at.index);
      const record = recordFor(state, id);
      const { colour, width, brush, points, pressures } = operation;
      record.added = { kind: 'ink', position: at, colour, width, brush, points, pressures };
      layOutPoints(record);
      recomputeVisibility(record, state.isActive);
      note(state, at.key, { kind: 'stroke', id });
      restack(state, id, delta);
      return;
    }
    case 'appendPoints': {
      const { stroke, id, points, pressures } = operation;
      if (at.replica !== stroke.replica || !(at.seq > stroke.seq)) return;
      if (isVoidAppend(state, at.replica, stroke.seq, at.seq)) return;
      const append = { key: at.key, seq: at.seq, points, pressures, firstIndex: 0 };
      noteAppend(state, at.replica, { seq: at.seq, stroke: stroke.seq, id });
      appendToRecord(recordFor(state, id), append, state.isActive);
      note(state, at.key, { kind: 'append', id });
      restack(state, id, delta);
      return;
    }
    case 'erase': {
      const { id, intervals } = operation;
      const record = recordFor(state, id);
      const erase = record.erases.get(at.key);
      if (erase === undefined) record.erases.set(at.key, { change: { replica: at.replica, seq: at.seq }, intervals });
      else erase.intervals.push(...intervals);
      note(state, at.key, { kind: 'erase', id });
      recomputeVisibility(record, state.isActive);
      restack(state, id, delta);
      return;
    }
    case 'addText': {
      // A box is added as a stroke is; its font size is its width.
      const id = strokeId(at, at.index);
      const record = recordFor(state, id);
      const { colour, size, at: corner } = operation;
      const points = [corner];
      record.added = { kind: 'text', position: at, colour, width: size, brush: 'pen', points, pressures: null };
      layOutPoints(record);
      recomputeVisibility(record, state.isActive);
      note(state, at.key, { kind: 'stroke', id });
      restack(state, id, delta);
      return;
    }
    case 'addImage': {
      // An image is added as a stroke is, in black at its box's width: neither ever shows (board-drawing.js).
      const id = strokeId(at, at.index);
      const record = recordFor(state, id);
      const { image, at: corner } = operation;
      record.added = {
        kind: 'image',
        position: at,
        colour: BLACK,
        width: image.width,
        brush: 'pen',
        points: [corner],
        pressures: null,
        image,
      };
      layOutPoints(record);
      recomputeVisibility(record, state.isActive);
      note(state, at.key, { kind: 'stroke', id });
      restack(state, id, delta);
      return;
    }
    case 'insertText': {
      // The run is this operation: its stamp orders it among runs typed at the same place.
      const { id, after, text } = operation;
      const run = { stamp: at.stamp, change: { replica: at.replica, seq: at.seq }, index: at.index };
      if (!typeInto(recordFor(state, id), run, after, text)) return;
      note(state, at.key, { kind: 'text', id });
      restack(state, id, delta);
      return;
    }
    case 'deleteText': {
      const { id, ranges } = operation;
      deleteFrom(recordFor(state, id), at.key, ranges);
      note(state, at.key, { kind: 'text', id });
      restack(state, id, delta);
      return;
    }
    case 'set': {
      const { id, attribute, value } = operation;
      const attributes = recordFor(state, id).attributes;
      if (!attributes.has(attribute)) attributes.set(attribute, []);
      insertWrite(attributes.get(attribute), { position: at, value });
      note(state, at.key, { kind: 'attribute', id, attribute });
      restack(state, id, delta);
      return;
    }
    case 'undo':
    case 'redo': {
      const target = operation.target;
      if (target.replica !== at.replica) return;
      const key = changeKey(target);
      let register = state.activity.get(key);
      if (register === undefined) {
        register = { value: true, at: ORIGIN };
        state.activity.set(key, register);
      }
      if (comparePositions(at, register.at) <= 0) return;
      register.value = operation.kind === 'redo';
      register.at = at;
      if (refreshActivity(state, target.replica, target.seq)) revisit(state, key, delta);
      return;
    }
    case 'clear': {
      const clears = state.clears;
      let index = clears.findIndex((other) => comparePositions(other, at) > 0);
      if (index === -1) index = clears.length;
      clears.splice(index, 0, at);
      note(state, at.key, { kind: 'clear' });
      updateLatestActiveClear(state, delta);
      return;
    }
    case 'settle': {
      // Whatever becomes of its own change: a settle is not noted as an effect, so undo cannot reach it.
      const { through, inactive } = operation;
      if (!(through < at.seq)) return;
      const settle = { seq: at.seq, index: at.index, through, inactive };
      const from = addSettle(state, at.replica, settle);
      for (const key of settleActivity(state, at.replica, settle, from)) revisit(state, key, delta);
      for (const id of voidAppends(state, at.replica, through)) {
        dropAppendsAfter(state.records.get(id), through, state.isActive);
        restack(state, id, delta);
      }
      return;
    }
  }
}

/** The stroke's record, created empty if the stroke has only been mentioned so far. */
function recordFor(state, id) {
  let record = state.records.get(id);
  if (record === undefined) {
    record = newRecord(id);
    state.records.set(id, record);
  }
  return record;
}

/** Remembers what a change touched, for when it is undone or redone. */
function note(state, key, effect) {
  const effects = state.effects.get(key);
  if (effects === undefined) state.effects.set(key, [effect]);
  else effects.push(effect);
}

/** Re-evaluates everything a change touched, after it was undone or redone. */
function revisit(state, key, delta) {
  for (const effect of state.effects.get(key) ?? []) {
    switch (effect.kind) {
      case 'stroke':
      case 'attribute':
        restack(state, effect.id, delta);
        break;
      case 'append':
      case 'erase':
        recomputeVisibility(state.records.get(effect.id), state.isActive);
        restack(state, effect.id, delta);
        break;
      case 'text':
        invalidateText(state.records.get(effect.id));
        restack(state, effect.id, delta);
        break;
      case 'clear':
        updateLatestActiveClear(state, delta);
        break;
    }
  }
}

/** Finds the latest active clear; when it moved, every stroke may have appeared or vanished. */
function updateLatestActiveClear(state, delta) {
  let latest = null;
  for (let i = state.clears.length - 1; i >= 0; i--) {
    if (state.isActive(state.clears[i].key)) {
      latest = state.clears[i];
      break;
    }
  }
  const previous = state.latestActiveClear;
  if (latest === previous || (latest !== null && previous !== null && comparePositions(latest, previous) === 0)) return;
  state.latestActiveClear = latest;
  delta.everything = true;
  for (const id of state.records.keys()) restack(state, id, delta);
}
