/**
 * Typing in a text box: a `<textarea>` laid over the board exactly where the box's lines go (the same
 * font, size, colour and baselines as text-layout.js, under the view and the box's own transform, so a
 * rotated box is edited rotated), growing with its text and never wrapping. The tiles leave the box out
 * meanwhile (the scene's `editing`), so it shows once.
 *
 * Every input is one change, so the others see the typing as it happens (and the session's undo takes back
 * a burst of it in one step): what changed in the field becomes a delete and an insert against the
 * characters it showed (text-edits.js). A new box is made by its first character (its `addText` and that
 * insert are one change), so clicking and going away leaves nothing. An input method's composition is
 * committed when it ends. Others' typing into the box comes into the field with the caret kept after the
 * same character.
 */

import { scalarCaret, utf16Caret } from '../model/board-text.js';
import { strokeId } from '../model/ids.js';
import { colourOperations, widthOperations } from '../model/selection-edits.js';
import { transformScale } from './scene.js';
import { editOperations, mapCaret } from './text-edits.js';
import { LINE_HEIGHT, fontMetrics, measureLine, textFont, textLines } from './text-layout.js';

/**
 * @typedef {import('./text-edits.js').Anchor} Anchor
 * @typedef {{at: [number, number], size: number, colour: number}} NewBox where a new box goes and how it
 *   looks, until its first character makes it
 */

/** Edits one text box at a time. */
export class TextEditor {
  /** @type {string | null} the box being edited; null while a new one waits for its first character */
  box = null;
  /** @type {NewBox | null} */
  pending = null;
  #open = false;
  /** The field's value as the anchors below name it. */
  #value = '';
  /** @type {Anchor[]} the board character behind each Unicode scalar of `#value` */
  #shown = [];
  #composing = false;
  /** Others changed the box while a composition was under way: the field takes it in when that ends. */
  #stale = false;

  /**
   * @param {{
   *   textarea: HTMLTextAreaElement, surface: HTMLElement,
   *   session: {board: import('../model/board.js').Board, nextChange: {replica: string, seq: number}},
   *   renderer: import('./renderer.js').Renderer,
   *   commit: (operations: object[]) => object | null,
   *   onHistory: (action: 'undo' | 'redo') => void,
   * }} options `onHistory` runs the board's undo or redo: the field's own would only undo its text
   */
  constructor({ textarea, surface, session, renderer, commit, onHistory }) {
    this.textarea = textarea;
    this.surface = surface;
    this.session = session;
    this.renderer = renderer;
    this.commit = commit;
    this.onHistory = onHistory;
    textarea.addEventListener('input', (event) => {
      if (!(/** @type {InputEvent} */ (event).isComposing)) this.#input();
    });
    textarea.addEventListener('compositionstart', () => (this.#composing = true));
    textarea.addEventListener('compositionend', () => {
      this.#composing = false;
      this.#input();
      if (this.#stale) this.#refresh();
    });
    textarea.addEventListener('beforeinput', (event) => {
      if (event.inputType === 'historyUndo' || event.inputType === 'historyRedo') event.preventDefault();
    });
    textarea.addEventListener('keydown', (event) => this.#key(event));
    // Presses in the field place its caret: they are not the board's.
    textarea.addEventListener('pointerdown', (event) => event.stopPropagation());
  }

  /** Whether a box is being edited (or a new one waits for its first character). */
  get active() {
    return this.#open;
  }

  /**
   * Opens the editor for a new box: nothing is on the board until the first character is typed.
   * @param {NewBox} box
   */
  start(box) {
    this.finish();
    this.pending = { at: [box.at[0], box.at[1]], size: box.size, colour: box.colour };
    this.#show('', []);
    this.#focus(0);
  }

  /**
   * Edits a box on the board with the caret at `caret` (Unicode scalars; the end if not given).
   * @param {string} id
   * @param {number} [caret]
   */
  edit(id, caret) {
    if (this.#open && this.box === id) return this.#focus(caret ?? this.#shown.length);
    this.finish();
    const stroke = this.session.board.stroke(id);
    if (stroke === null || stroke.text === undefined) return;
    this.box = id;
    this.renderer.setEditing(id);
    this.#show(stroke.text, this.#characters());
    this.#focus(caret ?? this.#shown.length);
  }

  /** Stops editing (Escape, a press elsewhere, another tool): what was typed is on the board already. */
  finish() {
    if (!this.#open) return;
    if (this.#composing) {
      this.#composing = false;
      this.#input();
    }
    // What was typed is one undo step; typing into the box again is the next.
    this.session.endTyping();
    this.#open = false;
    this.#stale = false;
    const focused = this.textarea.ownerDocument?.activeElement === this.textarea;
    this.textarea.hidden = true;
    this.textarea.value = '';
    this.renderer.setEditing(null);
    this.box = null;
    this.pending = null;
    this.#value = '';
    this.#shown = [];
    if (focused) this.surface.focus({ preventScroll: true });
  }

  /**
   * Follows a board delta: others' typing into the box comes into the field, a move or restyle moves the
   * field, and a box that left the board (deleted, undone) ends the editing.
   * @param {import('../model/board-state.js').BoardDelta} delta
   */
  changed(delta) {
    if (!this.#open || this.box === null || !(delta.everything || delta.strokes.has(this.box))) return;
    if (this.session.board.stroke(this.box)?.text === undefined) return this.finish();
    if (this.#composing) this.#stale = true;
    else this.#refresh();
  }

  /**
   * Gives the box being edited another colour or size: a change of its own for a box on the board, the
   * new box's look for one not made yet.
   * @param {{colour?: number, size?: number}} look
   */
  restyle({ colour, size }) {
    if (!this.#open) return;
    if (this.pending !== null && this.box === null) {
      if (colour !== undefined) this.pending.colour = colour;
      if (size !== undefined) this.pending.size = size;
      return this.place();
    }
    const stroke = this.box === null ? null : this.session.board.stroke(this.box);
    if (stroke === null) return;
    const operations = [
      ...(colour === undefined ? [] : colourOperations([stroke], colour)),
      ...(size === undefined ? [] : widthOperations([stroke], size)),
    ];
    if (operations.length > 0) this.commit(operations);
  }

  /** Lays the field over the box again (the view moved, the theme changed). */
  place() {
    if (!this.#open) return;
    const look = this.#look();
    if (look === null) return;
    const { corner, size, colour, transform: t } = look;
    const style = this.textarea.style;
    const lines = textLines(this.textarea.value);
    let widest = 0;
    for (const line of lines) if (line !== '') widest = Math.max(widest, measureLine(line, size));
    // A CSS line box puts its baseline half the spare leading and the ascent below its top: the field's
    // top goes where that lands the first baseline on the layout's.
    const { ascent, descent } = fontMetrics();
    const left = corner[0];
    const top = corner[1] + size * (1 - ((LINE_HEIGHT - ascent - descent) / 2 + ascent));
    const viewport = this.renderer.viewport;
    const s = viewport.scale;
    const matrix = [
      s * t[0],
      s * t[1],
      s * t[2],
      s * t[3],
      s * (t[0] * left + t[2] * top + t[4] - viewport.originX),
      s * (t[1] * left + t[3] * top + t[5] - viewport.originY),
    ];
    style.font = textFont(size);
    style.lineHeight = String(LINE_HEIGHT);
    // Room for the caret and the next character, so the field never scrolls before it grows.
    style.width = `${widest + size}px`;
    style.height = `${lines.length * LINE_HEIGHT * size}px`;
    style.transform = `matrix(${matrix.join(', ')})`;
    style.color = this.renderer.style(colour);
    style.setProperty('--pixel', `${1 / (s * Math.max(transformScale(t), 1e-6))}px`);
    this.textarea.scrollLeft = 0;
    this.textarea.scrollTop = 0;
  }

  /** What the field shows now, as the board names it (for tests): the box, its text and the caret. */
  state() {
    if (!this.#open) return null;
    return { box: this.box, value: this.textarea.value, caret: scalarCaret(this.textarea.value, this.textarea.selectionEnd) };
  }

  /** The field's value changed: the change that makes the box show it. */
  #input() {
    if (!this.#open || this.#composing) return;
    const value = this.textarea.value;
    if (value === this.#value) return;
    const next = this.session.nextChange;
    const creating = this.box === null;
    const box = creating ? strokeId(next, 0) : this.box;
    const edit = editOperations({
      box,
      shown: this.#shown,
      before: this.#value,
      after: value,
      caret: this.textarea.selectionEnd,
      runId: (index) => strokeId(next, index),
      firstIndex: creating ? 1 : 0,
    });
    const operations = edit.operations;
    if (creating && this.pending !== null) {
      const { at, size, colour } = this.pending;
      operations.unshift({ op: 'addText', colour, size, at: [at[0], at[1]] });
    }
    // The field's characters are named before the change is applied: the board tells of it at once.
    const before = { box: this.box, value: this.#value, shown: this.#shown };
    this.box = box;
    this.#value = value;
    this.#shown = edit.shown;
    if (creating) this.renderer.setEditing(box);
    if (this.commit(operations) === null) {
      // Not saved (the notice says why): the field shows the board again.
      this.box = before.box;
      if (creating) this.renderer.setEditing(null);
      this.#show(before.value, before.shown);
      this.#focus(before.shown.length);
      return;
    }
    if (creating) this.pending = null;
    this.place();
  }

  /** Takes in the box as the board has it now, the caret after the same character. */
  #refresh() {
    this.#stale = false;
    const text = this.box === null ? null : this.session.board.text(this.box);
    if (text === null) return;
    const characters = this.#characters();
    const field = this.textarea;
    if (text !== field.value) {
      const old = field.value;
      const map = (index) => utf16Caret(text, mapCaret(this.#shown, scalarCaret(old, index), characters));
      const [start, end, direction] = [map(field.selectionStart), map(field.selectionEnd), field.selectionDirection];
      field.value = text;
      field.setSelectionRange(start, end, direction);
    }
    this.#value = text;
    this.#shown = characters;
    this.place();
  }

  /** @param {string} value @param {Anchor[]} shown */
  #show(value, shown) {
    this.#open = true;
    this.#value = value;
    this.#shown = shown;
    this.textarea.value = value;
    this.textarea.hidden = false;
    this.place();
  }

  /** Focuses the field with the caret at `caret` (Unicode scalars). */
  #focus(caret) {
    const index = utf16Caret(this.textarea.value, caret);
    this.textarea.focus({ preventScroll: true });
    this.textarea.setSelectionRange(index, index);
  }

  /** The box's characters as anchors. @returns {Anchor[]} */
  #characters() {
    return this.box === null ? [] : this.session.board.visibleCharacters(this.box).map(({ run, offset }) => ({ run, offset }));
  }

  /** Where the box is and how it looks: from the board, or the new box's settings. */
  #look() {
    if (this.box !== null) {
      const stroke = this.session.board.stroke(this.box);
      if (stroke === null) return null;
      return { corner: stroke.points[0], size: stroke.width, colour: stroke.colour, transform: stroke.transform };
    }
    if (this.pending === null) return null;
    return { corner: this.pending.at, size: this.pending.size, colour: this.pending.colour, transform: [1, 0, 0, 1, 0, 0] };
  }

  /** Escape finishes; the undo keys undo on the board (the field's own undo would only change its text). */
  #key(event) {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.finish();
      return;
    }
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const letter = event.key.length === 1 ? event.key.toLowerCase() : (event.code ?? '').replace(/^Key/, '').toLowerCase();
    if (letter === 'z') {
      event.preventDefault();
      this.onHistory(event.shiftKey ? 'redo' : 'undo');
    } else if (letter === 'y' && !event.shiftKey) {
      event.preventDefault();
      this.onHistory('redo');
    }
  }
}
