/**
 * What the toolbar, the keys and the clipboard do to the selection: delete, duplicate, bring to front,
 * send to back, recolour, fill, change width, nudge, select all, copy, cut and paste. Every edit is one change,
 * built by selection-edits.js (the operations Swift makes for the same selection), so each is one undo
 * step.
 *
 * A copy also stays here, so pasting works where the clipboard does not hold it (a paste asked for without
 * a clipboard event, or a browser that drops custom types).
 *
 * Images copied from another room are pasted once their bytes are uploaded to this one (`rehome`): a blob
 * belongs to its room, and another room's name for it opens nothing here.
 */

import { strokeId } from '../model/ids.js';
import {
  backOperations,
  colourOperations,
  copyOperations,
  fillOperations,
  frontOperations,
  transformOperations,
  translation,
  widthOperations,
} from '../model/selection-edits.js';
import { COPY_OFFSET, STROKES_TYPE, clipboardPayload, pasteOffset, readClipboardData } from './clipboard.js';
import { deleteOperations } from './erasing.js';
import { fillColour } from './fill.js';

/** Arrow keys' steps, in board pixels: one, or ten with Shift. */
const NUDGE = Object.freeze({ near: 1, far: 10 });
const DIRECTIONS = Object.freeze({ left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] });
/** The operations that add an element: the copies a paste or a duplicate selects. */
const ADDS = new Set(['addStroke', 'addText', 'addImage']);

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
   * @param {{
   *   selectTool?: () => void,
   *   imageBytes?: import('./export-svg.js').SVGOptions['imageBytes'],
   *   rehome?: (strokes: import('./clipboard.js').CopiedStroke[]) => Promise<import('./clipboard.js').CopiedStroke[]>,
   * }} [options] `selectTool` picks a tool that shows a selection (after a paste or Ctrl+A, from another
   *   tool); `imageBytes` gives the bytes of images for the clipboard's SVG; `rehome` uploads the images
   *   among pasted strokes to this room and names them as it does (without it, strokes from another room
   *   are pasted without their images)
   */
  constructor(context, { selectTool = () => {}, imageBytes, rehome } = {}) {
    this.context = context;
    this.selectTool = selectTool;
    this.imageBytes = imageBytes;
    this.rehome = rehome;
  }

  get selection() {
    return this.context.selection;
  }

  get board() {
    return this.context.selection.board;
  }

  /**
   * Runs `action` if it is one of the selection's (`selection:delete`, `selection:duplicate`,
   * `selection:front`, `selection:back`, `selection:fill`, `selection:unfill`, `nudge:<left|right|up|down>[:far]`, `select-all`, `copy`, `cut`,
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
      case 'selection:fill':
        this.#commit(fillOperations(this.selection.strokes(), fillColour(this.context.settings.colour)));
        return true;
      case 'selection:unfill':
        // A colour of alpha 0 takes the fill away.
        this.#commit(fillOperations(this.selection.strokes(), 0));
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
    this.#commit(colourOperations(this.#styled(), colour));
    return true;
  }

  /** Gives the selection a width, if there is one. @param {number} width @returns {boolean} whether there was */
  setWidth(width) {
    if (this.selection.size === 0) return false;
    this.#commit(widthOperations(this.#styled(), width));
    return true;
  }

  /** The selected strokes a colour or a width changes: an image shows its own colours at its own size. */
  #styled() {
    return this.selection.strokes().filter((stroke) => stroke.image === undefined);
  }

  /**
   * Copies the selection: to `data` (a copy event's clipboard) if given, and here.
   * @param {ClipboardData | null} data
   * @returns {boolean} whether there was anything to copy
   */
  copy(data) {
    if (this.selection.size === 0) return false;
    const payload = clipboardPayload(this.selection.stacked(), { room: this.context.session.room, imageBytes: this.imageBytes });
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
    const { strokes, room } = readClipboardData(text);
    if (strokes.length === 0) return false;
    this.#pasted = { text, times: this.#pasted.text === text ? this.#pasted.times + 1 : 1 };
    const offset = pasteOffset(strokes, this.context.viewport.visibleRect(), this.#pasted.times);
    this.selectTool();
    if (room === (this.context.session.room ?? null) || !strokes.some((stroke) => stroke.image !== undefined)) {
      this.#placeCopies(strokes, offset);
    } else if (this.rehome !== undefined) {
      void this.rehome(strokes).then((moved) => this.#placeCopies(moved, offset));
    } else {
      this.#placeCopies(strokes.filter((stroke) => stroke.image === undefined), offset);
    }
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
    const operations = copyOperations(strokes, offset, (index) => strokeId(next, index), this.board.strokes());
    const changes = this.#commit(operations);
    if (changes === null) return;
    // Named by the changes made: a paste too large for one change is cut into several.
    this.selection.set(
      changes.flatMap((change) => change.operations.flatMap((op, index) => (ADDS.has(op.op) ? [strokeId(change.id, index)] : []))),
    );
  }

  #commit(operations) {
    return this.context.commit(operations);
  }
}
