/**
 * What of a stroke being drawn is saved already. A long stroke is saved while the pen is still down (pen.js
 * calls `save` every CHECKPOINT_INTERVAL): its first points as an addStroke, each later run as an
 * appendPoints to it. Appends are no undo steps of their own (author.js `isUndoStep`): undoing the add
 * takes back the whole stroke.
 *
 * At pen-up a stroke recognised as a shape replaces its saved ink: the ink is deleted and the shape added
 * in one change that joins the add's undo step, so one undo takes back both, as it does an unsaved stroke
 * that snapped.
 */

import { strokeId } from '../model/ids.js';
import { appendOperation, inkOperation, penUpOperations, shapeOperation, strokeShape } from './ink.js';

/**
 * Commits operations as the tool context does: the changes made, or null when none could be.
 * @typedef {(operations: object[], options?: {continues?: boolean}) => object[] | null} Commit
 */

export class InkCheckpoints {
  /** The saved stroke's id (`<replica>-<seq>-0`), once its first points are saved. @type {string | null} */
  stroke = null;
  /** The change that added the stroke. @type {{replica: string, seq: number} | null} */
  change = null;
  /** How many of the stroke's points are saved. */
  count = 0;
  #style;
  #commit;

  /**
   * @param {import('./ink.js').InkStyle} style
   * @param {Commit} commit
   */
  constructor(style, commit) {
    this.#style = style;
    this.#commit = commit;
  }

  /**
   * Where the ink not saved yet begins: at the last saved point, so that what the overlay and presence
   * show joins what the board shows.
   */
  get tailStart() {
    return Math.max(0, this.count - 1);
  }

  /**
   * Saves the points drawn since the last save.
   * @param {[number, number][]} points the whole stroke so far
   * @param {number[] | null} pressures one per point, or null
   * @returns {boolean} whether anything was saved
   */
  save(points, pressures) {
    if (points.length <= this.count) return false;
    const fresh = points.slice(this.count);
    const freshPressures = pressures === null ? null : pressures.slice(this.count);
    if (this.stroke === null) {
      const changes = this.#commit([inkOperation(fresh, freshPressures, this.#style)]);
      if (changes === null || changes.length === 0) return false;
      this.change = { replica: changes[0].id.replica, seq: changes[0].id.seq };
      this.stroke = strokeId(changes[0].id, 0);
    } else {
      if (this.#commit([appendOperation(this.stroke, fresh, freshPressures)]) === null) return false;
    }
    this.count = points.length;
    return true;
  }

  /**
   * Pen-up: saves the rest of the stroke, or, when the whole stroke is a shape, puts the shape in place
   * of the ink saved so far.
   * @param {[number, number][]} points the whole stroke
   * @param {number[] | null} pressures
   * @param {boolean} recognizesShapes
   * @returns {import('../geometry/recognizer.js').RecognizedShape} the shape (`none` for ink)
   */
  finish(points, pressures, recognizesShapes) {
    if (this.stroke === null) {
      const { operations, shape } = penUpOperations(points, pressures, this.#style, recognizesShapes);
      this.#commit(operations);
      return shape;
    }
    const shape = strokeShape(points, recognizesShapes);
    if (shape.kind === 'none') {
      this.save(points, pressures);
      return shape;
    }
    const hide = { op: 'set', stroke: this.stroke, attribute: 'deleted', value: true };
    this.#commit([hide, shapeOperation(shape, this.#style)], { continues: true });
    return shape;
  }
}
