/**
 * Where images come into the page besides a paste: files dropped on the board (placed where they are
 * dropped) and the file picker of the Image button (placed in the middle of the view). A file dropped
 * anywhere else on the page is kept from the browser, which would otherwise leave the board to show it.
 */

import { carriesFiles, filesIn } from './image-files.js';

/** The accepted types the picker offers first (any file may still be picked, and is checked by its bytes). */
const PICKER_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/**
 * Takes files dropped on `surface`.
 * @param {{
 *   surface: HTMLElement, viewport: import('./viewport.js').Viewport,
 *   add: (files: File[], centre: [number, number]) => void, window?: Window,
 * }} options
 */
export function acceptDrops({ surface, viewport, add, window: win = globalThis.window }) {
  const over = (on) => surface.classList.toggle('dropping', on);
  surface.addEventListener('dragover', (event) => {
    if (!carriesFiles(event.dataTransfer)) return;
    event.preventDefault();
    if (event.dataTransfer !== null) event.dataTransfer.dropEffect = 'copy';
    over(true);
  });
  surface.addEventListener('dragleave', (event) => {
    if (event.target === surface) over(false);
  });
  surface.addEventListener('drop', (event) => {
    over(false);
    const files = filesIn(event.dataTransfer);
    if (files.length === 0) return;
    event.preventDefault();
    const bounds = surface.getBoundingClientRect();
    add(files, viewport.toBoard(event.clientX - bounds.left, event.clientY - bounds.top));
  });
  // Elsewhere on the page a dropped file is nobody's: the browser must not navigate to it.
  for (const type of ['dragover', 'drop']) {
    win.addEventListener(type, (event) => {
      if (carriesFiles(event.dataTransfer) && !event.defaultPrevented) event.preventDefault();
    });
  }
}

/** The Image button's file picker: a hidden file input. */
export class ImagePicker {
  /**
   * @param {HTMLInputElement} input
   * @param {(files: File[]) => void} add
   */
  constructor(input, add) {
    this.input = input;
    input.accept = PICKER_TYPES;
    input.multiple = true;
    input.addEventListener('change', () => {
      const files = [...(input.files ?? [])];
      // Cleared, so picking the same file again is a change too.
      input.value = '';
      if (files.length > 0) add(files);
    });
  }

  /** Opens the picker (from a click or a key press: browsers open it only for those). */
  open() {
    this.input.click();
  }
}
