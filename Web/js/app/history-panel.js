/**
 * The history panel: a slider over the board's changes in the total order (js/model/board-history.js). Moving
 * it shows the board as it was after that change, says who made the change and when, and "Restore this
 * version" makes one new change that brings the board back to what the slider shows (undoable like any
 * edit). While the panel is open the board on screen is the past one and nothing can be drawn; closing it
 * shows the live board again.
 */

import { boardAt, restoreOperations } from '../model/board-history.js';
import { strokeId } from '../model/ids.js';

/** What a change is told by when it does several things: what shows most first. */
const TOLD_FIRST = Object.freeze([
  'cleared the board', 'added an image', 'drew', 'added text', 'typed', 'deleted text', 'erased',
  'deleted', 'moved', 'recoloured', 'resized', 'restacked', 'undid', 'redid',
]);

/**
 * What a change did, in a few words: the first of its operations that shows.
 * @param {{operations: object[]}} change
 */
export function describeChange(change) {
  const operations = change.operations ?? [];
  const kinds = new Set(operations.map((operation) => operationKind(operation)));
  for (const kind of TOLD_FIRST) {
    if (kinds.has(kind)) return kind === 'drew' && operations.length > 1 && kinds.has('erased') ? 'drew and erased' : kind;
  }
  return operations.some((operation) => operation?.op === 'settle') ? 'settled earlier changes' : 'changed the board';
}

function operationKind(operation) {
  switch (operation?.op) {
    case 'addStroke':
    case 'appendPoints':
      return 'drew';
    case 'addImage':
      return 'added an image';
    case 'erase':
      return 'erased';
    // A new text box comes with its first text; typing over a selection deletes and inserts: both typed.
    case 'addText':
      return 'added text';
    case 'insertText':
      return 'typed';
    case 'deleteText':
      return 'deleted text';
    case 'clear':
      return 'cleared the board';
    case 'undo':
      return 'undid';
    case 'redo':
      return 'redid';
    case 'set':
      return { deleted: 'deleted', transform: 'moved', colour: 'recoloured', width: 'resized', zOrder: 'restacked' }[operation.attribute] ?? 'changed';
    default:
      return 'changed';
  }
}

/**
 * "Change 12 of 40 · Ada drew · 14:02, 3 Nov" for the slider's place.
 * @param {object[]} history
 * @param {number} count how many changes the past board holds
 * @param {(replica: string) => string} who a person's name for a replica
 * @param {(wall: number) => string} when a time for a stamp's wall clock
 */
export function historyLabel(history, count, who, when) {
  if (history.length === 0) return 'No changes yet';
  if (count === 0) return `Before the first change held here (${when(history[0].stamp.wall)})`;
  const change = history[count - 1];
  const place = count === history.length ? `Now: change ${count} of ${history.length}` : `Change ${count} of ${history.length}`;
  return `${place} · ${who(change.id.replica)} ${describeChange(change)} · ${when(change.stamp.wall)}`;
}

/**
 * The panel over the board.
 *
 * Rebuilding a past board costs O(changes before it), about a quarter of a second for 5,000 changes of
 * 100 points: so a move forward applies only the changes passed over to the board already shown (and the
 * renderer repaints only what they touch), and the slider's moves are taken at most once a frame.
 */
export class HistoryPanel {
  /** @type {object[]} */
  #history = [];
  #count = 0;
  /** @type {import('../model/board.js').Board | null} */
  #past = null;
  /** How many changes of `#history` `#past` holds. */
  #pastCount = 0;
  /** The slider's value waiting for the next frame, or null. @type {number | null} */
  #pending = null;

  /**
   * @param {{
   *   root: HTMLElement,
   *   session: {history(): object[], board: import('../model/board.js').Board, nextChange: {replica: string, seq: number}},
   *   show: (board: import('../model/board.js').Board | null) => void,
   *   commit: (operations: object[]) => object | null,
   *   who: (replica: string) => string,
   *   notify: (text: string) => void,
   *   undoKey: string,
   *   frame?: (callback: () => void) => void,
   * }} options `show` gets the past board (null: the live one) and, when it is the board shown before with
   *   changes applied, what they altered; `frame` runs a callback before the next paint
   */
  constructor({ root, session, show, commit, who, notify, undoKey, frame = nextFrame }) {
    this.root = root;
    this.session = session;
    this.show = show;
    this.commit = commit;
    this.who = who;
    this.notify = notify;
    this.undoKey = undoKey;
    this.frame = frame;
    this.slider = /** @type {HTMLInputElement} */ (root.querySelector('input[type="range"]'));
    this.label = /** @type {HTMLElement} */ (root.querySelector('.history-label'));
    this.restoreButton = /** @type {HTMLButtonElement} */ (root.querySelector('[data-testid="history-restore"]'));
    this.slider.addEventListener('input', () => this.#slid(Number(this.slider.value)));
    this.restoreButton.addEventListener('click', () => this.restore());
    root.querySelector('[data-testid="history-close"]')?.addEventListener('click', () => this.close());
  }

  get open() {
    return !this.root.hidden;
  }

  /** Opens the panel at the present. */
  openPanel() {
    this.#history = this.session.history();
    this.root.hidden = false;
    this.slider.max = String(this.#history.length);
    this.moveTo(this.#history.length);
    this.slider.focus({ preventScroll: true });
  }

  /** Shows the board after `count` changes. @param {number} count */
  moveTo(count) {
    this.#pending = null;
    this.#count = Math.max(0, Math.min(count, this.#history.length));
    this.slider.value = String(this.#count);
    const atPresent = this.#count === this.#history.length;
    if (atPresent) {
      this.#past = null;
      this.show(null);
    } else if (this.#past !== null && this.#count >= this.#pastCount) {
      const delta = this.#past.applyAll(this.#history.slice(this.#pastCount, this.#count));
      this.#pastCount = this.#count;
      this.show(this.#past, delta);
    } else {
      this.#past = boardAt(this.#history, this.#count, this.session.board.board);
      this.#pastCount = this.#count;
      this.show(this.#past);
    }
    this.label.textContent = historyLabel(this.#history, this.#count, this.who, formatTime);
    this.slider.setAttribute('aria-valuetext', this.label.textContent);
    this.restoreButton.disabled = atPresent;
  }

  /** The slider moved: shown at the next frame, the latest place only. @param {number} count */
  #slid(count) {
    const waiting = this.#pending !== null;
    this.#pending = count;
    if (!waiting) {
      this.frame(() => {
        if (this.#pending !== null && this.open) this.moveTo(this.#pending);
      });
    }
  }

  /**
   * The board changed while the panel is open: the slider's range grows; a slider at the present stays
   * there. A change may sort anywhere in the order, so the past board is built again.
   */
  changed() {
    if (!this.open) return;
    const atPresent = this.#count === this.#history.length;
    this.#past = null;
    this.#history = this.session.history();
    this.slider.max = String(this.#history.length);
    this.moveTo(atPresent ? this.#history.length : this.#count);
  }

  /** Makes the live board look as the slider's place does, in one change, and closes the panel. */
  restore() {
    if (this.#past === null) return;
    const next = this.session.nextChange;
    const operations = restoreOperations(this.session.board, this.#past, (i) => strokeId(next, i));
    const label = this.label.textContent;
    this.close();
    if (operations.length === 0) return this.notify('The board already looks like that');
    if (this.commit(operations) !== null) this.notify(`Restored: ${label.split(' · ').slice(1).join(' · ')}. Undo with ${this.undoKey}`);
  }

  close() {
    if (!this.open) return;
    this.root.hidden = true;
    this.#past = null;
    this.#pending = null;
    this.show(null);
  }
}

/** Before the next paint in a browser; at once elsewhere. @param {() => void} callback */
function nextFrame(callback) {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(callback);
  else callback();
}

/** A stamp's wall clock as the reader's local time: the time alone today, with the date otherwise. */
function formatTime(wall) {
  const date = new Date(wall);
  const today = new Date();
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (date.toDateString() === today.toDateString()) return time;
  return `${time}, ${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}`;
}
