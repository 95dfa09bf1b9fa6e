/**
 * Keyboard shortcuts: which action a key press asks for. Pure, so the mapping is tested without a page;
 * main.js listens for keys and runs the actions.
 */

/**
 * The shortcuts, as shown in tooltips. `mod` is Ctrl, or ⌘ on a Mac (either works everywhere).
 * @type {Readonly<Record<string, string>>}
 */
export const SHORTCUT_LABELS = Object.freeze({
  undo: 'Ctrl+Z',
  redo: 'Shift+Ctrl+Z',
  'tool:select': 'V',
  'tool:lasso': 'L',
  'tool:pen': 'P',
  'tool:highlighter': 'M',
  'tool:eraser': 'E',
  'tool:stroke-eraser': 'X',
  'tool:text': 'T',
  image: 'I',
  'selection:delete': 'Delete',
  'selection:duplicate': 'Ctrl+D',
  'selection:front': 'Ctrl+]',
  'selection:back': 'Ctrl+[',
  'select-all': 'Ctrl+A',
  'toggle:shapes': 'S',
  'zoom:in': '+',
  'zoom:out': '−',
  'zoom:reset': '0',
  'zoom:fit': '1',
  'width:down': '[',
  'width:up': ']',
  theme: 'Shift+T',
  history: 'H',
  help: '?',
});

/**
 * The tooltip text for a shortcut on this platform.
 * @param {string} action
 * @param {boolean} mac
 */
export function shortcutLabel(action, mac) {
  const label = SHORTCUT_LABELS[action];
  if (label === undefined) return '';
  return mac ? label.replace('Ctrl+', '⌘').replace('Shift+⌘', '⇧⌘') : label;
}

/**
 * The action a key press asks for, or null.
 * @param {{key: string, code?: string, ctrlKey?: boolean, metaKey?: boolean, shiftKey?: boolean,
 *   altKey?: boolean, target?: unknown}} event
 * @returns {string | null}
 */
export function shortcutFor(event) {
  if (isTyping(event.target)) return null;
  const key = typeof event.key === 'string' ? event.key : '';
  const lower = key.toLowerCase();
  const mod = Boolean(event.ctrlKey || event.metaKey);
  // Keyboard layouts that do not type Latin letters still have the key where Z is.
  const letter = lower.length === 1 && lower >= 'a' && lower <= 'z' ? lower : (event.code ?? '').replace(/^Key/, '').toLowerCase();
  if (event.altKey) return null;
  if (key === 'Escape') return 'cancel';
  if (mod) {
    if (letter === 'z') return event.shiftKey ? 'redo' : 'undo';
    if (letter === 'y' && !event.shiftKey) return 'redo';
    if (event.shiftKey) return null;
    if (letter === 'a') return 'select-all';
    if (letter === 'd') return 'selection:duplicate';
    // Copy, cut and paste stay the browser's: its clipboard events carry the data (selection-actions.js).
    if (key === ']' || event.code === 'BracketRight') return 'selection:front';
    if (key === '[' || event.code === 'BracketLeft') return 'selection:back';
    return null;
  }
  if (key === 'Delete' || key === 'Backspace') return 'selection:delete';
  if (key.startsWith('Arrow')) {
    // A focused slider moves with the arrows; elsewhere they nudge the selection.
    if (isControl(event.target)) return null;
    return `nudge:${key.slice(5).toLowerCase()}${event.shiftKey ? ':far' : ''}`;
  }
  if (key === '?') return 'help';
  if (key === '+' || key === '=') return 'zoom:in';
  if (key === '-' || key === '_') return 'zoom:out';
  if (key === '0') return 'zoom:reset';
  if (key === '1') return 'zoom:fit';
  if (key === '[') return 'width:down';
  if (key === ']') return 'width:up';
  if (event.shiftKey) return letter === 't' ? 'theme' : null;
  switch (letter) {
    case 'v':
      return 'tool:select';
    case 'l':
      return 'tool:lasso';
    case 'p':
      return 'tool:pen';
    case 'm':
      return 'tool:highlighter';
    case 'e':
      return 'tool:eraser';
    case 'x':
      return 'tool:stroke-eraser';
    case 't':
      return 'tool:text';
    case 'i':
      return 'image';
    case 's':
      return 'toggle:shapes';
    case 'h':
      return 'history';
    default:
      return null;
  }
}

/** Whether keys go to a text field (the name box, the colour picker) rather than the board. */
export function isTyping(target) {
  if (target === null || typeof target !== 'object') return false;
  const tag = typeof target.tagName === 'string' ? target.tagName.toUpperCase() : '';
  if (tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable === true) return true;
  if (tag !== 'INPUT') return false;
  const type = String(target.type ?? 'text').toLowerCase();
  return !['button', 'checkbox', 'radio', 'range', 'color', 'submit', 'reset'].includes(type);
}

/** Whether the arrow keys belong to a form control (the width slider). */
function isControl(target) {
  if (target === null || typeof target !== 'object') return false;
  const tag = typeof target.tagName === 'string' ? target.tagName.toUpperCase() : '';
  return tag === 'INPUT' || tag === 'SELECT';
}
