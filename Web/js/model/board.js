// One board: the browser's port of Swift's `BoardState` (Sources/InkwellBoard).
//
// The state is a pure function of the *set* of changes applied: any order, any repetition, any batching
// gives the same drawing, the same canonical bytes and the same hash as Swift. Changes are in the JSON
// form of Conformance/board.json: `{id: {replica, seq}, stamp: {wall, counter}, board, operations}`.

import { applyChange } from './board-apply.js';
import { encodeDrawing } from './board-canonical.js';
import { drawingStroke } from './board-drawing.js';
import { boardImage, imagesIn } from './board-images.js';
import { inertChanges } from './board-inert.js';
import { checkBoardInvariants } from './board-invariants.js';
import { settlement, settledThrough } from './board-settles.js';
import { emptyDelta, newBoardState } from './board-state.js';
import { boxText, deleteTextOperations, insertTextOperation, textAnchorAt, visibleCharacters } from './board-text.js';
import { fnv1a64 } from './canonical-encoder.js';
import { changeKey, parseChangeId, parseReplicaId, parseStrokeId, strokeId } from './ids.js';

/**
 * @typedef {import('./board-state.js').BoardDelta} BoardDelta
 * @typedef {import('./board-drawing.js').DrawingStroke} DrawingStroke
 * @typedef {import('./ids.js').ChangeId} ChangeId
 * @typedef {import('./board-text.js').TextAnchor} TextAnchor
 * @typedef {import('./board-text.js').VisibleCharacter} VisibleCharacter
 * @typedef {import('./board-image.js').BoardImage} BoardImage
 * @typedef {import('./board-images.js').ImageBlob} ImageBlob
 */

export class Board {
  #state;

  /** @param {string} [board] the board's name: changes for other boards are ignored */
  constructor(board = 'main') {
    this.#state = newBoardState(board);
  }

  /** The board's name. @returns {string} */
  get board() {
    return this.#state.board;
  }

  /**
   * Applies a change. Applying it again, or a change for another board, does nothing; operations that
   * are malformed or of an unknown kind are ignored (the change log keeps them).
   *
   * The delta names the strokes whose geometry, style or visibility may have changed, whether the
   * stacking order of visible strokes changed, and whether everything may have (a clear or its undo).
   * @param {object} change
   * @returns {BoardDelta}
   * - Complexity: O(size of the change) plus O(log strokes) per restacked stroke; O(strokes) for a
   *   clear or for undoing one.
   */
  apply(change) {
    return applyChange(this.#state, change);
  }

  /**
   * Applies many changes; the same as applying them one by one, in any order.
   * @param {Iterable<object>} changes
   * @returns {BoardDelta} the union of their deltas
   */
  applyAll(changes) {
    const delta = emptyDelta();
    for (const change of changes) {
      const one = this.apply(change);
      for (const id of one.strokes) delta.strokes.add(id);
      delta.reordered ||= one.reordered;
      delta.everything ||= one.everything;
    }
    return delta;
  }

  /**
   * Whether a change has been applied.
   * @param {ChangeId} id
   */
  contains(id) {
    const parsed = parseChangeId(id);
    return parsed !== null && this.#state.applied.has(changeKey(parsed));
  }

  /** The number of changes applied. */
  get changeCount() {
    return this.#state.applied.size;
  }

  /**
   * Whether a change is active: as the earliest settle covering it says, or else not undone, or redone
   * since. True for changes not seen yet that nothing makes inactive.
   * @param {ChangeId} id
   */
  isActive(id) {
    const parsed = parseChangeId(id);
    return parsed === null || this.#state.isActive(changeKey(parsed));
  }

  /**
   * The largest `through` of a replica's settles on this board: its changes up to there are settled.
   * @param {string} replica
   * @returns {number} 0 if it has settled none
   */
  settledThrough(replica) {
    const parsed = parseReplicaId(replica);
    return parsed === null ? 0 : settledThrough(this.#state, parsed);
  }

  /**
   * The settle operation by which `replica` settles its changes on this board through `through`: it
   * lists those above its latest settle that are inactive now, so that settling changes nothing visible.
   * Its `through` is lower when more are inactive than a settle may list.
   * @param {string} replica
   * @param {number} through
   * @returns {{op: 'settle', through: number, inactive: number[]} | null} null when the replica's settles
   *   reach `through` already
   * @throws {TypeError} for a malformed replica id
   * - Complexity: O(i log i) for the replica's i inactive changes.
   */
  settlement(replica, through) {
    const parsed = parseReplicaId(replica);
    if (parsed === null) throw new TypeError('a replica id is 32 hex digits');
    return settlement(this.#state, parsed, through);
  }

  /**
   * The changes among `changes` inside `cut` that no longer matter (docs/ARCHITECTURE.md, "Settling"):
   * dropping them, with the cut standing for them, leaves the drawing as it is now and after any changes
   * still to come. `cut` must be a prefix of every timeline this board has applied, or that an earlier
   * compaction dropped as inert, and `changes` changes this board has applied. None is inert while any of
   * `changes` holds an operation of a newer schema.
   * @param {Iterable<object>} changes in the JSON form
   * @param {Map<string, number>} cut by replica: its changes 1 through the seq given
   * @returns {ChangeId[]} in the order of `changes`
   * - Complexity: O(size of the changes) plus O(points + erases) for each stroke they touch.
   */
  inertChanges(changes, cut) {
    return inertChanges(this.#state, changes, cut);
  }

  /**
   * The visible strokes, bottom to top: what a renderer draws. The arrays inside are the board's own.
   * @returns {DrawingStroke[]}
   * - Complexity: O(visible strokes).
   */
  strokes() {
    return this.#state.stack.map((entry) => drawingStroke(this.#state, entry.id));
  }

  /** The number of visible strokes. */
  get visibleStrokeCount() {
    return this.#state.stack.length;
  }

  /**
   * A visible stroke, or null if it is hidden, erased away, deleted, undone or not here yet.
   * @param {string} id `<replica hex>-<seq>-<index>`
   * @returns {DrawingStroke | null}
   * - Complexity: O(1).
   */
  stroke(id) {
    return drawingStroke(this.#state, canonicalStrokeId(id));
  }

  /**
   * The points of a stroke that has arrived, visible or not: what erasers and appends work against.
   * @param {string} id
   * @returns {[number, number][] | null}
   */
  points(id) {
    const record = this.#state.records.get(canonicalStrokeId(id));
    return record === undefined || record.added === null ? null : record.points;
  }

  /**
   * The text a box shows (shown itself or not), or null if `id` is not a text box that has arrived.
   * @param {string} id
   * @returns {string | null}
   */
  text(id) {
    return boxText(this.#state, canonicalStrokeId(id));
  }

  /**
   * The characters a box shows, in order, each with the anchor (`run`, `offset`) that names it; empty if
   * `id` is not a text box. Carets count these (Unicode scalars).
   * @param {string} id
   * @returns {VisibleCharacter[]}
   */
  visibleCharacters(id) {
    return visibleCharacters(this.#state, canonicalStrokeId(id));
  }

  /**
   * Where text typed at `caret` (0…characters shown) goes: the anchor of the character shown before it,
   * null at the start. The `after` of an `insertText`.
   * @param {string} id
   * @param {number} caret
   * @returns {TextAnchor | null}
   * @throws {RangeError} if `id` is not a text box or the caret is outside its text
   */
  textAnchorAt(id, caret) {
    return textAnchorAt(this.#state, canonicalStrokeId(id), caret);
  }

  /**
   * The `insertText` that types `text` (1 to 100,000 Unicode scalars) at `caret`.
   * @param {string} id
   * @param {number} caret
   * @param {string} text
   * @throws {RangeError} as `textAnchorAt`, or for empty or too long text
   */
  insertTextOperation(id, caret, text) {
    return insertTextOperation(this.#state, canonicalStrokeId(id), caret, text);
  }

  /**
   * The `deleteText`s (one, or more for over 10,000 ranges: put them in one change) that delete the
   * characters shown between carets `from` and `to`; none when they are equal.
   * @param {string} id
   * @param {number} from
   * @param {number} to
   * @throws {RangeError} if `id` is not a text box or a caret is outside its text
   */
  deleteTextOperations(id, from, to) {
    return deleteTextOperations(this.#state, canonicalStrokeId(id), from, to);
  }

  /**
   * What an image names (its blob, size, type and box), shown itself or not, or null if `id` is not an image
   * that has arrived.
   * @param {string} id
   * @returns {BoardImage | null}
   */
  image(id) {
    return boardImage(this.#state, canonicalStrokeId(id));
  }

  /**
   * The images that show, bottom to top, with the blobs that hold their bytes: what the page fetches.
   * @returns {ImageBlob[]}
   * - Complexity: O(visible strokes).
   */
  images() {
    return imagesIn(this.strokes());
  }

  /**
   * The canonical bytes of what the board shows: byte-identical to Swift's `canonicalEncoding()`.
   * @returns {Uint8Array}
   */
  canonicalEncoding() {
    return encodeDrawing(this.#state);
  }

  /**
   * The FNV-1a fingerprint of the canonical encoding, as 16 hex digits: Swift's `canonicalHash`.
   * @returns {string}
   */
  hash() {
    return fnv1a64(this.canonicalEncoding());
  }

  /** Throws if the board's internal indexes disagree: for tests. */
  checkInvariants() {
    checkBoardInvariants(this.#state);
  }
}

/** The id in the board's key form (lowercase hex, no leading zeros), or the input if malformed. */
function canonicalStrokeId(id) {
  const parsed = parseStrokeId(id);
  return parsed === null ? id : strokeId(parsed, parsed.index);
}
