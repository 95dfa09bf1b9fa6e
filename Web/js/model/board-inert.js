// Which changes stop mattering within a cut, as Sources/InkwellBoard/State/BoardState+Inert.swift
// (docs/ARCHITECTURE.md, "Settling", "Which changes stop mattering"): dropping them, with the cut standing
// for them, leaves the drawing as it is now and after any changes still to come. A page checks by this
// rule that a room snapshot leaves out only what stopped mattering here; so that any device can, the rule
// keeps the proof of a stroke's end: an erase or deletion goes only with a stroke that died in a way whose
// proof lies elsewhere (its add undone for good, or a clear), and settles and the latest fixed clear stay.

import { governingSettle, isVoidAppend, settledThrough } from './board-settles.js';
import { changeKey, compareChangeIds, comparePositions, parseChangeId, position, strokeId } from './ids.js';
import { readOperation } from './operation.js';
import { isErasedAway } from './stroke-record.js';

/**
 * @typedef {import('./board-state.js').BoardState} BoardState
 * @typedef {import('./ids.js').ChangeId} ChangeId
 * @typedef {import('./ids.js').Position} Position
 * @typedef {import('./ids.js').StrokeRef} StrokeRef
 * @typedef {Map<string, number>} Cut by replica: its changes 1 through the seq given
 * @typedef {'undone' | 'cleared' | 'deleted' | 'erasedAway'} Death why a stroke is hidden for good: its add
 *   is fixed-inactive, or a fixed-active clear came after it (proved by the settles and the clear, which
 *   stay); or a fixed-active deletion, or fixed-active erases that leave nothing (proved by those)
 */

/** The operation kinds this version reads: any other is of a newer schema. */
const KNOWN = new Set([
  'addStroke',
  'appendPoints',
  'erase',
  'set',
  'undo',
  'redo',
  'clear',
  'settle',
  'addText',
  'insertText',
  'deleteText',
  'addImage',
]);

/**
 * The changes among `changes` inside `cut` that no longer matter, in the order given.
 *
 * `cut` must be a prefix of every timeline that this board has applied, or that an earlier compaction
 * dropped as inert; `changes` are changes of this board that it has applied. Changes outside the cut
 * are never inert, and none is while any change holds an operation of a newer schema.
 * @param {BoardState} state
 * @param {Iterable<any>} changes in the JSON form
 * @param {Cut} cut
 * @returns {ChangeId[]}
 * - Complexity: O(size of the changes) plus O(points + erases) for each stroke they touch.
 */
export function inertChanges(state, changes, cut) {
  const list = [...changes];
  // An operation of a newer schema might bring back what this version calls dead.
  const unread = list.some((change) => Array.isArray(change?.operations) && change.operations.some(isUnread));
  if (unread) return [];
  const rule = new InertnessRule(state, cut, list);
  const candidates = [];
  for (const change of list) {
    if (change?.board !== state.board || !Array.isArray(change.operations)) continue;
    const id = parseChangeId(change.id);
    if (id === null || !rule.inCut(id) || !state.applied.has(changeKey(id))) continue;
    candidates.push({ change, id });
  }
  // In timeline order, so an undo or redo finds whether the earlier change it aims at is inert.
  const ordered = [...candidates].sort((a, b) => compareChangeIds(a.id, b.id));
  const found = new Set();
  for (const { change, id } of ordered) {
    const stamp = change.stamp;
    if (change.operations.every((op, index) => rule.isInert(op, position(stamp, id, index), found))) {
      found.add(changeKey(id));
    }
  }
  return candidates.filter(({ id }) => found.has(changeKey(id))).map(({ id }) => id);
}

/** @param {any} op */
function isUnread(op) {
  return op === null || typeof op !== 'object' || !KNOWN.has(op.op);
}

/** What a cut fixes of a board: which changes' fate is settled within it, and which strokes are dead. */
class InertnessRule {
  #state;
  #cut;
  /** The latest `clear` whose change is fixed-active: every stroke added before it is dead. @type {Position | null} */
  #latestFixedClear = null;
  /** How each stroke asked about died, or null: several operations may ask of one. @type {Map<string, Death | null>} */
  #deaths = new Map();
  /**
   * Each timeline's changes among those asked about, by seq, with their stamps: a later change bounds the
   * stamp of an earlier one that is not held.
   * @type {Map<string, {seq: number, stamp: any}[]>}
   */
  #timelines = new Map();

  /** @param {BoardState} state @param {Cut} cut @param {any[]} changes in the JSON form */
  constructor(state, cut, changes = []) {
    this.#state = state;
    this.#cut = cut;
    for (const change of changes) {
      if (change?.board !== state.board) continue;
      const id = parseChangeId(change.id);
      if (id === null) continue;
      let timeline = this.#timelines.get(id.replica);
      if (timeline === undefined) this.#timelines.set(id.replica, (timeline = []));
      timeline.push({ seq: id.seq, stamp: change.stamp });
    }
    for (const timeline of this.#timelines.values()) timeline.sort((a, b) => a.seq - b.seq);
    for (let i = state.clears.length - 1; i >= 0; i--) {
      if (this.fixedActivity(state.clears[i]) === true) {
        this.#latestFixedClear = state.clears[i];
        break;
      }
    }
  }

  /** Whether a change is inside the cut. @param {ChangeId} id */
  inCut(id) {
    return id.seq <= (this.#cut.get(id.replica) ?? 0);
  }

  /**
   * Whether the operation at `at`, inside the cut, can never matter again.
   * @param {any} op in the JSON form
   * @param {Position} at
   * @param {Set<string>} inertBefore the inert changes found so far (by changeKey), every earlier change
   *   of its timeline among them
   */
  isInert(op, at, inertBefore = new Set()) {
    const state = this.#state;
    const operation = readOperation(op);
    switch (op.op) {
      case 'addStroke':
        return operation === null || this.#death(strokeId(at, at.index)) !== null;
      case 'appendPoints': {
        if (operation?.kind !== 'appendPoints') return true;
        const { stroke } = operation;
        return (
          at.replica !== stroke.replica ||
          !(at.seq > stroke.seq) ||
          isVoidAppend(state, at.replica, stroke.seq, at.seq) ||
          this.#isGone(stroke, operation.id)
        );
      }
      case 'erase':
        // An erase may be the proof that its stroke was erased away, for a device that still holds the
        // stroke: it goes only with a stroke whose end it cannot have caused, or undone for good.
        return (
          operation?.kind !== 'erase' ||
          this.fixedActivity(at) === false ||
          this.#isGoneWithoutProof(operation.stroke, operation.id)
        );
      case 'addText':
      case 'addImage':
        // Malformed, or an element dead for good, as for a stroke.
        return operation === null || this.#death(strokeId(at, at.index)) !== null;
      case 'insertText':
        // A box's text goes with the box, and text aimed at ink or an image never shows. Undone for good,
        // an insert stays: others' text may be anchored in it.
        if (operation?.kind !== 'insertText') return true;
        return this.#isGone(operation.box, operation.id) || this.#takesNoText(operation.id);
      case 'deleteText':
        if (operation?.kind !== 'deleteText' || this.fixedActivity(at) === false) return true;
        return this.#isGone(operation.box, operation.id) || this.#takesNoText(operation.id);
      case 'set': {
        // Malformed, or `deleted: false`, which the board ignores.
        if (operation?.kind !== 'set' || this.fixedActivity(at) === false) return true;
        // Likewise a deletion.
        if (operation.attribute === 'deleted') return this.#isGoneWithoutProof(operation.stroke, operation.id);
        if (this.#isGone(operation.stroke, operation.id)) return true;
        const writes = state.records.get(operation.id)?.attributes.get(operation.attribute) ?? [];
        for (let i = writes.length - 1; i >= 0 && comparePositions(writes[i].position, at) > 0; i--) {
          if (this.fixedActivity(writes[i].position) === true) return true;
        }
        return false;
      }
      case 'undo':
      case 'redo': {
        // A settled change's register no longer counts; a change of the cut that this board does not hold
        // is another board's, or was dropped as inert, and never arrives here; and an inert change matters
        // neither active nor not, so turning it on or off does not either.
        if (operation?.kind !== op.op) return true;
        const { target } = operation;
        return (
          target.replica !== at.replica ||
          settledThrough(state, target.replica) >= target.seq ||
          (this.inCut(target) && !state.applied.has(changeKey(target))) ||
          (target.seq < at.seq && inertBefore.has(changeKey(target)))
        );
      }
      case 'clear':
        return (
          this.fixedActivity(at) === false ||
          (this.#latestFixedClear !== null && comparePositions(this.#latestFixedClear, at) > 0)
        );
      default:
        return false;
    }
  }

  /**
   * Active or inactive for good, if a settle inside the cut governs the change; null otherwise. A
   * change's governing settle is fixed when its own change is inside the cut: every earlier settle of its
   * author is then known.
   * @param {{replica: string, seq: number}} change
   * @returns {boolean | null}
   */
  fixedActivity({ replica, seq }) {
    const governing = governingSettle(this.#state, replica, seq);
    if (governing === null || governing.seq > (this.#cut.get(replica) ?? 0)) return null;
    return !governing.inactive.has(seq);
  }

  /**
   * Dead, or never a stroke of this board: its change is inside the cut and added none here.
   * @param {StrokeRef} stroke @param {string} id
   */
  #isGone(stroke, id) {
    return this.#death(id) !== null || this.#neverExists(stroke, id);
  }

  /**
   * Gone in a way whose proof does not lie in the erases and deletions aimed at it.
   * @param {StrokeRef} stroke @param {string} id
   */
  #isGoneWithoutProof(stroke, id) {
    const death = this.#death(id);
    if (death !== null) return death === 'undone' || death === 'cleared';
    // Without a stroke held here, only what survives compaction counts: a device that dropped the stroke's
    // change (or took a snapshot that left it out) cannot tell a stroke from a change that added none, and
    // a device that still holds a stroke needs these erases and deletions as the proof of its end. So both
    // ask the same of it, and a device that compacted never calls inert what one that holds everything keeps.
    return this.inCut(stroke) && this.#isDeadByItsTimeline(stroke);
  }

  /**
   * Whether a stroke this board does not show as added is dead whatever its change was, by proof that
   * stays: its change is fixed-inactive (the settle says so), or a later change of its timeline, held here,
   * comes before the latest fixed-active clear (stamps grow along a timeline, so the stroke does too).
   * @param {StrokeRef} stroke
   */
  #isDeadByItsTimeline(stroke) {
    if (this.fixedActivity(stroke) === false) return true;
    const clear = this.#latestFixedClear;
    const timeline = this.#timelines.get(stroke.replica);
    if (clear === null || timeline === undefined) return false;
    let low = 0;
    let high = timeline.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (timeline[middle].seq <= stroke.seq) low = middle + 1;
      else high = middle;
    }
    if (low >= timeline.length) return false;
    const later = timeline[low];
    return comparePositions(position(later.stamp, { replica: stroke.replica, seq: later.seq }, 0), clear) <= 0;
  }

  /** Whether `id` was added as ink or an image, which text never shows in. @param {string} id */
  #takesNoText(id) {
    const added = this.#state.records.get(id)?.added ?? null;
    return added !== null && added.kind !== 'text';
  }

  /** @param {StrokeRef} stroke @param {string} id */
  #neverExists(stroke, id) {
    return this.inCut(stroke) && (this.#state.records.get(id)?.added ?? null) === null;
  }

  /** Why a stroke is hidden for good, so nothing still to come shows it again; null if it is not. @param {string} id */
  #death(id) {
    let death = this.#deaths.get(id);
    if (death === undefined) {
      death = this.#deathNow(id);
      this.#deaths.set(id, death);
    }
    return death;
  }

  /** Works out `#death` for a stroke not asked about yet. @param {string} id @returns {Death | null} */
  #deathNow(id) {
    const record = this.#state.records.get(id);
    if (record === undefined || record.added === null) return null;
    const added = record.added.position;
    const addition = this.fixedActivity(added);
    if (addition === false) return 'undone';
    if (this.#latestFixedClear !== null && comparePositions(added, this.#latestFixedClear) < 0) return 'cleared';
    const deletions = record.attributes.get('deleted') ?? [];
    if (deletions.some((write) => this.fixedActivity(write.position) === true)) return 'deleted';
    // Erased away: settled, so no append can still come, and hidden by what is fixed alone.
    const { replica } = added;
    if (addition !== true) return null;
    if (!record.appends.every(({ seq }) => this.fixedActivity({ replica, seq }) !== null)) return null;
    const erased = isErasedAway(
      record,
      (change) => this.fixedActivity(change) === true,
      (seq) => this.fixedActivity({ replica, seq }) === false,
    );
    return erased ? 'erasedAway' : null;
  }
}
