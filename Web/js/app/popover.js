/**
 * A small panel opened by a button: closes on Escape, on a click outside, or on the button again, and
 * keeps `aria-expanded` true to what is shown.
 */

/** A panel toggled by a button. */
export class Popover {
  /**
   * @param {HTMLElement} button
   * @param {HTMLElement} panel
   * @param {{onOpen?: () => void}} [options]
   */
  constructor(button, panel, { onOpen } = {}) {
    this.button = button;
    this.panel = panel;
    this.onOpen = onOpen;
    button.setAttribute('aria-expanded', 'false');
    // As toolbar buttons: a click does not take the focus from the board (Space keeps panning).
    button.addEventListener('mousedown', (e) => e.preventDefault());
    button.addEventListener('click', () => (this.open ? this.close() : this.show()));
    const doc = button.ownerDocument;
    doc.addEventListener('pointerdown', (e) => {
      if (this.open && !panel.contains(e.target) && !button.contains(e.target)) this.close();
    });
    doc.addEventListener('keydown', (e) => {
      if (this.open && e.key === 'Escape') {
        this.close();
        button.focus();
      }
    });
  }

  get open() {
    return !this.panel.hidden;
  }

  show() {
    this.onOpen?.();
    this.panel.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
  }

  close() {
    this.panel.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
  }
}
