/**
 * The toolbar: tools, palette and custom colour, width, undo/redo/clear, zoom, theme and exports, what can
 * be done to a selection while there is one, and the text sizes while the text tool is chosen. The buttons are in index.html (so their test hooks
 * and labels exist before any script runs); this binds them to actions and keeps their pressed states and
 * tooltips current.
 */

import { colourHex, inkStyle, parseColour } from './colour.js';
import { shortcutLabel } from './shortcuts.js';

/**
 * @typedef {{
 *   run: (action: string) => void,
 *   setColour: (colour: number, options?: {live?: boolean}) => void,
 *   setWidth: (width: number, options?: {live?: boolean}) => void,
 *   setTextSize?: (size: number) => void,
 * }} ToolbarActions `run` takes the action names of shortcuts.js plus `clear`, `export-png`, `export-svg`;
 *   `live` marks a value still being picked (the colour picker open, the slider held), whose last value
 *   follows without it
 */

/** Binds the toolbar's buttons and shows the current settings on them. */
export class Toolbar {
  /**
   * @param {HTMLElement} root
   * @param {ToolbarActions} actions
   * @param {{mac?: boolean}} [options]
   */
  constructor(root, actions, { mac = false } = {}) {
    this.root = root;
    /** Whether drawing controls are off (a view link). */
    this.readOnly = false;
    // A click leaves the focus where it was (the board), so Space still pans and never presses the last
    // button clicked; keyboard users still reach every button with Tab.
    for (const button of root.querySelectorAll('button')) button.addEventListener('mousedown', (e) => e.preventDefault());
    for (const button of root.querySelectorAll('button[data-action]')) {
      const action = button.dataset.action;
      button.addEventListener('click', () => actions.run(action));
      const shortcut = shortcutLabel(action, mac);
      const label = button.getAttribute('aria-label');
      button.title = shortcut === '' ? label : `${label} (${shortcut})`;
      if (shortcut !== '') button.setAttribute('aria-keyshortcuts', ariaShortcut(shortcut));
    }
    for (const swatch of root.querySelectorAll('button[data-colour]')) {
      const colour = parseColour(swatch.dataset.colour);
      swatch.addEventListener('click', () => actions.setColour(colour));
    }
    this.custom = /** @type {HTMLInputElement} */ (root.querySelector('input[type="color"]'));
    for (const [type, live] of [['input', true], ['change', false]]) {
      this.custom.addEventListener(type, () => {
        const colour = parseColour(this.custom.value);
        if (colour !== null) actions.setColour(colour, { live });
      });
    }
    this.width = /** @type {HTMLInputElement} */ (root.querySelector('input[type="range"]'));
    this.width.addEventListener('input', () => actions.setWidth(Number(this.width.value), { live: true }));
    this.width.addEventListener('change', () => actions.setWidth(Number(this.width.value), { live: false }));
    for (const button of root.querySelectorAll('button[data-text-size]')) {
      button.addEventListener('click', () => actions.setTextSize?.(Number(button.dataset.textSize)));
    }
    this.selectionGroup = /** @type {HTMLElement | null} */ (root.querySelector('.selection-actions'));
    this.textSizes = /** @type {HTMLElement | null} */ (root.querySelector('.text-sizes'));
  }

  /** Shows what can be done to a selection while there is one. @param {number} count selected strokes */
  showSelection(count) {
    if (this.selectionGroup !== null) this.selectionGroup.hidden = count === 0;
  }

  /**
   * Shows the current settings: the pressed tool, the chosen colour, the width, the shapes toggle, and the
   * text size with the text tool.
   * @param {import('./settings.js').Settings} settings
   * @param {{zoom: number, theme: string}} view
   */
  show(settings, view) {
    for (const button of this.root.querySelectorAll('button[data-action^="tool:"]')) {
      button.setAttribute('aria-pressed', String(button.dataset.action === `tool:${settings.tool}`));
    }
    if (this.textSizes !== null) this.textSizes.hidden = settings.tool !== 'text';
    for (const button of this.root.querySelectorAll('button[data-text-size]')) {
      button.setAttribute('aria-pressed', String(Number(button.dataset.textSize) === settings.textSize));
    }
    const shapes = this.root.querySelector('button[data-action="toggle:shapes"]');
    shapes?.setAttribute('aria-pressed', String(settings.shapes));
    const hex = colourHex(((settings.colour & 0xffffff00) | 0xff) >>> 0);
    let matched = false;
    for (const swatch of this.root.querySelectorAll('button[data-colour]')) {
      const colour = parseColour(swatch.dataset.colour);
      const chosen = colour === settings.colour;
      matched ||= chosen;
      swatch.setAttribute('aria-pressed', String(chosen));
      // Swatches show the ink as the board will draw it: black reads as white on the dark board.
      swatch.style.setProperty('--swatch', inkStyle(colour, view.theme));
    }
    this.custom.closest('.custom')?.classList.toggle('chosen', !matched);
    if (this.custom.value !== hex) this.custom.value = hex;
    this.root.style.setProperty('--ink', inkStyle(settings.colour, view.theme));
    this.root.style.setProperty('--dot', `${Math.min(10, Math.max(3, settings.width / 2))}px`);
    if (Number(this.width.value) !== settings.width) this.width.value = String(settings.width);
    this.width.setAttribute('aria-valuetext', `${settings.width} pixels`);
    const zoom = this.root.querySelector('button[data-action="zoom:reset"] .zoom-value');
    const percent = `${Math.round(view.zoom * 100)}%`;
    if (zoom !== null && zoom.textContent !== percent) zoom.textContent = percent;
    const theme = this.root.querySelector('button[data-action="theme"]');
    theme?.setAttribute('aria-pressed', String(view.theme === 'dark'));
  }

  /**
   * Marks undo and redo as having nothing to do (still focusable and clickable: a click just says so).
   * @param {boolean} canUndo
   * @param {boolean} canRedo
   */
  showHistory(canUndo, canRedo) {
    if (this.readOnly) return;
    this.root.querySelector('button[data-action="undo"]')?.setAttribute('aria-disabled', String(!canUndo));
    this.root.querySelector('button[data-action="redo"]')?.setAttribute('aria-disabled', String(!canRedo));
  }

  /**
   * On a view link nothing can be drawn: every drawing control (tools, colours, width, undo, redo, clear)
   * is marked disabled and taken out of the Tab order, and the page ignores its actions; the view and
   * export controls stay.
   * @param {boolean} readOnly
   */
  setReadOnly(readOnly) {
    if (readOnly === this.readOnly) return;
    this.readOnly = readOnly;
    for (const group of this.root.querySelectorAll('[data-drawing]')) {
      for (const control of group.querySelectorAll('button, input')) {
        if (control instanceof HTMLInputElement) control.disabled = readOnly;
        else {
          control.setAttribute('aria-disabled', String(readOnly));
          if (readOnly) control.setAttribute('tabindex', '-1');
          else control.removeAttribute('tabindex');
        }
      }
      for (const label of group.querySelectorAll('label')) label.setAttribute('aria-disabled', String(readOnly));
    }
  }
}

/** `Shift+Ctrl+Z` → `Shift+Control+Z`, as aria-keyshortcuts spells modifiers. */
function ariaShortcut(label) {
  return label.replace('Ctrl', 'Control').replace('⌘', 'Meta+').replace('⇧', 'Shift+').replace('−', '-');
}
