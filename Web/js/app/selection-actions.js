/**
 * What the toolbar, the keys and the clipboard do to the selection: delete, duplicate, bring to front,
 * send to back, recolour, change width, nudge, select all, copy, cut and paste. Every edit is one change,
 * built by selection-edits.js (the operations Swift makes for the same selection), so each is one undo
 * step.
 *
 * A copy also stays here, so pasting works where the clipboard does not hold it (a paste asked for without
 * a clipboard event, or a browser that drops custom types).
 */

import { strokeId } from '../model/ids.js';
import {
  backOperations,
  colourOperations,
  copyOperations,
  frontOperations,
  transformOperations,
  translation,
  widthOperations,
} from '../model/selection-edits.js';
import { COPY_OFFSET, STROKES_TYPE, clipboardPayload, pasteOffset, readClipboard } from './clipboard.js';
import { deleteOperations } from './erasing.js';

/** Arrow keys' steps, in board pixels: one, or ten with Shift. */
const NUDGE = Object.freeze({ near: 1, far: 10 });
const DIRECTIONS = Object.freeze({ left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] });

/**
 * @typedef {{getData(type: string): string, setData(type: string, data: string): void}} ClipboardData
 *   what copy, cut and paste events carry (`DataTransfer`)
 */

/** The selection's actions, over a tool context. */
export class SelectionActions {
  /** @type {{json: string, svg: string} | null} */
  #copied = null;
  /** The text pasted last, and how many times in a row. */
  #pasted = { text: '', times: 0 };

  /**
   * @param {import('./main.js').ToolContext} context
   * @param {{selectTool?: () => void}} [options] `selectTool` picks a tool that shows a selection (after
   *   a paste or Ctrl+A, from another tool)
   */
  constructor(context, { selectTool = () => {} } = {}) {
    this.context = context;
    this.selectTool = selectTool;
  }

  get selection() {
    return this.context.selection;
  }

  get board() {
    return this.context.selection.board;
  }

  /**
   * Runs `action` if it is one of the selection's (`selection:delete`, `selection:duplicate`,
   * `selection:front`, `selection:back`, `nudge:<left|right|up|down>[:far]`, `select-all`, `copy`, `cut`,
   * `paste`).
   * @param {string} action
   * @returns {boolean} whether it was one
   */
  run(action) {
    if (action.startsWith('nudge:')) {
      const [, direction, far] = action.split(':');
      const [x, y] = DIRECTIONS[direction] ?? [0, 0];
      const step = far === 'far' ? NUDGE.far : NUDGE.near;
      this.#commit(transformOperations(this.selection.strokes(), translation(x * step, y * step)));
      return true;
    }
    switch (action) {
      case 'selection:delete':
        if (this.#commit(deleteOperations(this.selection.ids)) !== null) this.selection.clear();
        return true;
      case 'selection:duplicate':
        this.#placeCopies(this.selection.stacked(), [COPY_OFFSET, COPY_OFFSET]);
        return true;
      case 'selection:front':
        this.#commit(frontOperations(new Set(this.selection.ids), this.board.strokes()));
        return true;
      case 'selection:back':
        this.#commit(backOperations(new Set(this.selection.ids), this.board.strokes()));
        return true;
      case 'select-all':
        this.selectTool();
        // Not an empty text box: nothing of it shows.
        this.selection.set(this.board.strokes().filter((stroke) => stroke.text !== '').map((stroke) => stroke.id));
        return true;
      case 'copy':
        this.copy(null);
        return true;
      case 'cut':
        this.cut(null);
        return true;
      case 'paste':
        this.paste(null);
        return true;
      default:
        return false;
    }
  }

  /** Recolours the selection, if there is one. @param {number} colour @returns {boolean} whether there was */
  recolour(colour) {
    if (this.selection.size === 0) return false;
    this.#commit(colourOperations(this.selection.strokes(), colour));
    return true;
  }

  /** Gives the selection a width, if there is one. @param {number} width @returns {boolean} whether there was */
  setWidth(width) {
    if (this.selection.size === 0) return false;
    this.#commit(widthOperations(this.selection.strokes(), width));
    return true;
  }

  /**
   * Copies the selection: to `data` (a copy event's clipboard) if given, and here.
   * @param {ClipboardData | null} data
   * @returns {boolean} whether there was anything to copy
   */
  copy(data) {
    if (this.selection.size === 0) return false;
    const payload = clipboardPayload(this.selection.stacked());
    data?.setData('text/plain', payload.svg);
    data?.setData('image/svg+xml', payload.svg);
    data?.setData(STROKES_TYPE, payload.json);
    this.#copied = payload;
    this.#pasted = { text: '', times: 0 };
    return true;
  }

  /** Copies the selection, then deletes it (one change). @param {ClipboardData | null} data */
  cut(data) {
    if (!this.copy(data)) return false;
    return this.run('selection:delete');
  }

  /**
   * Pastes strokes from `data` (a paste event's clipboard), or else from the last copy made here while the
   * clipboard still holds it (or when there is no clipboard to read): one change, the copies selected.
   * @param {ClipboardData | null} data
   * @returns {boolean} whether there were strokes to paste
   */
  paste(data) {
    let text = data?.getData(STROKES_TYPE) ?? '';
    if (text === '' && this.#copied !== null && (data === null || data.getData('text/plain') === this.#copied.svg)) {
      text = this.#copied.json;
    }
    const strokes = readClipboard(text);
    if (strokes.length === 0) return false;
    this.#pasted = { text, times: this.#pasted.text === text ? this.#pasted.times + 1 : 1 };
    const offset = pasteOffset(strokes, this.context.viewport.visibleRect(), this.#pasted.times);
    this.selectTool();
    this.#placeCopies(strokes, offset);
    return true;
  }

  /**
   * Adds copies of `strokes` moved by `offset`, in one change, and selects them.
   * @param {import('./clipboard.js').CopiedStroke[]} strokes bottom to top
   * @param {[number, number]} offset
   */
  #placeCopies(strokes, offset) {
    if (strokes.length === 0) return;
    const next = this.context.session.nextChange;
    const newStroke = (index) => strokeId(next, index);
    const operations = copyOperations(strokes, offset, newStroke, this.board.strokes());
    const added = operations.filter((op) => op.op === 'addStroke' || op.op === 'addText').length;
    if (this.#commit(operations) === null) return;
    this.selection.set(Array.from({ length: added }, (_, index) => newStroke(index)));
  }

  #commit(operations) {
    return this.context.commit(operations);
  }
}
