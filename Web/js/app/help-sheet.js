/**
 * The help sheet (?): every shortcut, grouped, from the same labels the toolbar's tooltips show
 * (shortcuts.js), plus the keys and gestures no button has. `helpSections` is pure, for tests; `HelpSheet`
 * fills a `<dialog>` with it and opens it (Escape or its button closes it).
 */

import { shortcutLabel } from './shortcuts.js';

/**
 * @typedef {{title: string, rows: [keys: string[], what: string][]}} HelpSection
 */

/**
 * The sections of the sheet, with keys as this platform spells them.
 * @param {boolean} mac
 * @returns {HelpSection[]}
 */
export function helpSections(mac) {
  const key = (action) => shortcutLabel(action, mac);
  const mod = mac ? '⌘' : 'Ctrl+';
  return [
    {
      title: 'Tools',
      rows: [
        [[key('tool:pen')], 'Pen'],
        [[key('tool:highlighter')], 'Highlighter: wide, see-through ink that stays beneath everything'],
        [[key('tool:eraser')], 'Eraser: rub out parts of strokes'],
        [[key('tool:stroke-eraser')], 'Stroke eraser: whole strokes'],
        [[key('tool:text')], 'Text: click to type, click a text box to edit it (Esc: done)'],
        [[key('image')], 'Image: pick a picture to add (or paste one, or drop it on the board)'],
        [[key('tool:select')], 'Select: click, Shift+click, or drag a box'],
        [[key('tool:lasso')], 'Lasso: draw a loop around strokes'],
        [[key('toggle:shapes')], 'Recognise shapes on or off'],
        [[key('width:down'), key('width:up')], 'Thinner, thicker'],
      ],
    },
    {
      title: 'Selection',
      rows: [
        [['Drag'], 'Move; the corners scale (Shift keeps the shape), the top handle rotates (Shift: 15° steps)'],
        [['Double-click'], 'Edit the text box clicked'],
        [['←', '↑', '→', '↓'], 'Nudge by a pixel (Shift: 10)'],
        [[key('selection:delete')], 'Delete'],
        [[key('selection:duplicate')], 'Duplicate'],
        [[`${mod}C`, `${mod}X`, `${mod}V`], 'Copy, cut, paste (also into another board)'],
        [[key('selection:front'), key('selection:back')], 'Bring to front, send to back'],
        [['Fill', 'No fill'], 'Paint inside the selected ink in the current colour, or take the paint away (toolbar)'],
        [[key('select-all')], 'Select everything'],
        [['Esc'], 'Let go of the selection'],
      ],
    },
    {
      title: 'Board',
      rows: [
        [[key('undo')], 'Undo your last change'],
        [[key('redo')], 'Redo'],
        [[key('history')], 'History: look back, restore an earlier version'],
        [['Space+drag', 'Wheel', 'Two fingers'], 'Pan'],
        [[`${mod}wheel`, 'Pinch', key('zoom:in'), key('zoom:out')], 'Zoom'],
        [[key('zoom:reset'), key('zoom:fit')], 'Zoom to 100 %, zoom to fit'],
        [[key('theme')], 'Light or dark'],
        [['?'], 'This sheet'],
      ],
    },
  ];
}

/** The sheet in its `<dialog>`. */
export class HelpSheet {
  /**
   * @param {HTMLDialogElement} dialog
   * @param {boolean} mac
   */
  constructor(dialog, mac) {
    this.dialog = dialog;
    const body = /** @type {HTMLElement} */ (dialog.querySelector('.help-sections'));
    for (const section of helpSections(mac)) {
      const heading = document.createElement('h3');
      heading.textContent = section.title;
      const list = document.createElement('dl');
      for (const [keys, what] of section.rows) {
        const term = document.createElement('dt');
        for (const [index, part] of keys.entries()) {
          if (index > 0) term.append(' ');
          const kbd = document.createElement('kbd');
          kbd.textContent = part;
          term.append(kbd);
        }
        const detail = document.createElement('dd');
        detail.textContent = what;
        list.append(term, detail);
      }
      body.append(heading, list);
    }
    dialog.querySelector('[data-testid="help-close"]')?.addEventListener('click', () => dialog.close());
  }

  get open() {
    return this.dialog.open;
  }

  toggle() {
    if (this.dialog.open) this.dialog.close();
    else this.dialog.showModal();
  }
}
