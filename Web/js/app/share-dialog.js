/**
 * The share dialog: the links this device can hand on (the edit link, the view link), each with a copy
 * button; for an open room the one link, saying anyone with it can draw. On the device that made the board
 * (it holds the admin capability) each link can be replaced, after a confirmation: the old one stops
 * working at once, for everyone.
 *
 * A modal dialog: `role="dialog"`, focus moved in on opening and kept in while open (Tab wraps), Escape
 * closes (or first cancels a confirmation), focus goes back where it was. The markup is in index.html, so
 * its test hooks exist before any script runs.
 */

import { shareable } from '../sync/access.js';
import { formatLink } from './link.js';
import { qrCode, qrSVG } from './qr-code.js';

/**
 * @typedef {import('../sync/store-records.js').AccessRecord} AccessRecord
 * @typedef {{room: string, access: AccessRecord | null, encrypted: boolean}} ShareState what the dialog
 *   shows: the room, what this device holds (null for an open room), and whether the board is sealed
 */

const FOCUSABLE = 'button:not([hidden]):not([disabled]), input:not([hidden]):not([disabled])';

/** What each kind of link lets its holder do, in the dialog's words. */
const KINDS = {
  edit: { label: 'Edit link: anyone with it can draw here', copied: 'Edit link copied: anyone with it can draw here' },
  view: { label: 'View link: anyone with it can look, not draw', copied: 'View link copied: anyone with it can look, not draw' },
};

export class ShareDialog {
  /** @type {Element | null} */
  #returnFocus = null;
  /** The link kind a confirmation is asked for. @type {'edit' | 'view' | null} */
  #confirming = null;
  #busy = false;
  /** The hub's address on its local network, when the server is a LAN hub. @type {string | null} */
  #lanOrigin = null;
  /** Whether the server was asked for its LAN addresses: once, when the dialog first opens, not on every page load. */
  #lanAsked = false;

  /**
   * @param {{
   *   button: HTMLElement, root: HTMLElement, origin: string, state: () => ShareState,
   *   replace: (kind: 'edit' | 'view') => Promise<unknown>,
   *   clipboard?: {writeText(text: string): Promise<void>} | null,
   *   lanOrigins?: () => Promise<string[]>
   * }} options `root`: the backdrop holding the dialog; `replace`: rotates a link, resolving once the
   *   server has answered (then `state` holds the new one); `lanOrigins`: where other devices on the
   *   network reach this server, if it is a LAN hub (lan-origins.js)
   */
  constructor({ button, root, origin, state, replace, clipboard = globalThis.navigator?.clipboard ?? null, lanOrigins = async () => [] }) {
    this.button = button;
    this.root = root;
    this.dialog = /** @type {HTMLElement} */ (root.querySelector('[role="dialog"]'));
    this.origin = origin;
    this.state = state;
    this.replace = replace;
    this.clipboard = clipboard;
    this.status = /** @type {HTMLElement} */ (root.querySelector('.share-status'));
    this.confirm = /** @type {HTMLElement} */ (root.querySelector('.share-confirm'));
    button.setAttribute('aria-haspopup', 'dialog');
    button.setAttribute('aria-expanded', 'false');
    // As the other bar buttons: a click leaves the focus where it was until the dialog takes it.
    button.addEventListener('mousedown', (e) => e.preventDefault());
    button.addEventListener('click', () => (this.open ? this.close() : this.show()));
    for (const kind of /** @type {const} */ (['edit', 'view'])) {
      this.#find(`copy-${kind}-link`).addEventListener('click', () => void this.#copy(kind));
      this.#find(`replace-${kind}-link`).addEventListener('click', () => this.#ask(kind));
      // A click in the field selects the whole link, ready to copy by hand.
      this.#field(kind).addEventListener('focus', (e) => /** @type {HTMLInputElement} */ (e.target).select());
    }
    this.#find('share-confirm-yes').addEventListener('click', () => void this.#replace());
    this.#find('share-confirm-no').addEventListener('click', () => this.#cancelConfirm());
    this.#find('share-close').addEventListener('click', () => this.close());
    // A click on the backdrop, outside the dialog, closes it.
    root.addEventListener('pointerdown', (e) => {
      if (e.target === root) this.close();
    });
    root.addEventListener('keydown', (e) => this.#key(e));
    this.lanOrigins = lanOrigins;
  }

  get open() {
    return !this.root.hidden;
  }

  /** Opens the dialog with the links as they are now, and moves the focus into it. */
  show() {
    if (!this.#lanAsked) {
      this.#lanAsked = true;
      void this.lanOrigins().then((origins) => {
        this.#lanOrigin = origins[0] ?? null;
        if (this.open) this.render();
      });
    }
    this.#returnFocus = this.button.ownerDocument.activeElement;
    this.#cancelConfirm();
    this.#say('');
    this.render();
    this.root.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    const first = /** @type {HTMLElement | null} */ (this.dialog.querySelector('.share-row:not([hidden]) .copy'));
    (first ?? this.#find('share-close')).focus();
  }

  close() {
    if (!this.open) return;
    this.root.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    const back = /** @type {HTMLElement | null} */ (this.#returnFocus);
    this.#returnFocus = null;
    (back !== null && back !== this.button.ownerDocument.body && typeof back.focus === 'function' ? back : this.button).focus();
  }

  /** Shows the links of the current state (after a replacement too). */
  render() {
    const { room, access, encrypted } = this.state();
    const links = shareable(access);
    const admin = Boolean(access?.admin);
    const about = [];
    if (links.open) {
      this.#show('edit', formatLink(this.origin, { room }), false);
      this.#label('edit', 'Anyone with this link can draw here');
      this.#hide('view');
      about.push('This board is open: anyone with its link can draw. Boards made with New get separate edit and view links.');
    } else {
      for (const kind of /** @type {const} */ (['edit', 'view'])) {
        const capability = links[kind];
        if (capability === null) this.#hide(kind);
        else {
          this.#show(kind, formatLink(this.origin, { room, capability, key: links.key }), admin);
          this.#label(kind, KINDS[kind].label);
        }
      }
      if (links.view === null) about.push('Only the person who made this board can give out a view-only link.');
      if (admin) about.push('You made this board: you can replace a link, and the old one stops working.');
    }
    if (encrypted) about.push('Drawings are encrypted on this device: the key is in the link, after #, and never reaches the server.');
    /** @type {HTMLElement} */ (this.dialog.querySelector('.share-about')).textContent = about.join(' ');
    this.#renderLAN(room, links);
  }

  /**
   * On a LAN hub, the strongest link this device can give, on the address other devices on the network
   * reach the hub at, as text and as a QR code to point a phone's camera at.
   * @param {string} room @param {ReturnType<typeof shareable>} links
   */
  #renderLAN(room, links) {
    const section = /** @type {HTMLElement | null} */ (this.dialog.querySelector('.share-lan'));
    if (section === null) return;
    const capability = links.open ? null : (links.edit ?? links.view);
    if (this.#lanOrigin === null || (!links.open && capability === null)) {
      section.hidden = true;
      return;
    }
    const link = formatLink(this.#lanOrigin, links.open ? { room } : { room, capability, key: links.key });
    /** @type {HTMLInputElement} */ (section.querySelector('input')).value = link;
    const image = /** @type {HTMLImageElement} */ (section.querySelector('img'));
    try {
      image.src = `data:image/svg+xml,${encodeURIComponent(qrSVG(qrCode(link)))}`;
      image.hidden = false;
    } catch {
      // Longer than a code holds: the link as text alone.
      image.hidden = true;
    }
    section.hidden = false;
  }

  /** @param {'edit' | 'view'} kind */
  async #copy(kind) {
    const field = this.#field(kind);
    try {
      if (this.clipboard === null) throw new Error('no clipboard');
      await this.clipboard.writeText(field.value);
      this.#say(KINDS[kind].copied);
    } catch {
      // No clipboard (an http page, a refused permission): the link is selected for a copy by hand.
      field.focus();
      field.select();
      this.#say('Copy the selected link with Ctrl+C (⌘C on a Mac)');
    }
  }

  /** Asks before replacing a link: the old one stops working for everyone. @param {'edit' | 'view'} kind */
  #ask(kind) {
    if (this.#busy) return;
    this.#confirming = kind;
    const words = kind === 'edit' ? 'edit' : 'view';
    /** @type {HTMLElement} */ (this.confirm.querySelector('.share-confirm-text')).textContent =
      `Replace the ${words} link? Everyone using the current one loses access at once, and needs the new one.`;
    this.#find('share-confirm-yes').textContent = `Replace ${words} link`;
    this.confirm.hidden = false;
    this.#find('share-confirm-no').focus();
  }

  #cancelConfirm() {
    const was = this.#confirming;
    this.#confirming = null;
    this.confirm.hidden = true;
    if (was !== null && this.open) this.#find(`replace-${was}-link`).focus();
  }

  async #replace() {
    const kind = this.#confirming;
    if (kind === null || this.#busy) return;
    this.#confirming = null;
    this.confirm.hidden = true;
    this.#busy = true;
    this.#say(`Replacing the ${kind} link…`);
    try {
      await this.replace(kind);
      this.render();
      this.#say(`New ${kind} link ready: the old one no longer works. Share this one.`);
      this.#find(`copy-${kind}-link`).focus();
    } catch (error) {
      this.#say(`The ${kind} link was not replaced: ${error?.message ?? error}`);
    } finally {
      this.#busy = false;
    }
  }

  /** @param {KeyboardEvent} e */
  #key(e) {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (this.#confirming !== null) this.#cancelConfirm();
      else this.close();
      return;
    }
    if (e.key !== 'Tab') return;
    // Focus stays in the dialog: Tab from the last control goes to the first, Shift+Tab the other way.
    const controls = [...this.dialog.querySelectorAll(FOCUSABLE)].filter((element) => element.closest('[hidden]') === null);
    if (controls.length === 0) return;
    const first = /** @type {HTMLElement} */ (controls[0]);
    const last = /** @type {HTMLElement} */ (controls[controls.length - 1]);
    const active = this.button.ownerDocument.activeElement;
    if (e.shiftKey && (active === first || !this.dialog.contains(active))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !this.dialog.contains(active))) {
      e.preventDefault();
      first.focus();
    }
  }

  /** @param {'edit' | 'view'} kind @param {string} link @param {boolean} replaceable */
  #show(kind, link, replaceable) {
    this.#row(kind).hidden = false;
    this.#field(kind).value = link;
    this.#find(`replace-${kind}-link`).hidden = !replaceable;
  }

  /** @param {'edit' | 'view'} kind */
  #hide(kind) {
    this.#row(kind).hidden = true;
    this.#field(kind).value = '';
  }

  /** @param {'edit' | 'view'} kind @param {string} text */
  #label(kind, text) {
    /** @type {HTMLElement} */ (this.#row(kind).querySelector('label')).textContent = text;
  }

  /** @param {string} text */
  #say(text) {
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  /** @param {'edit' | 'view'} kind */
  #row(kind) {
    return /** @type {HTMLElement} */ (this.dialog.querySelector(`.share-row[data-kind="${kind}"]`));
  }

  /** @param {'edit' | 'view'} kind @returns {HTMLInputElement} */
  #field(kind) {
    return /** @type {HTMLInputElement} */ (this.#find(`share-${kind}-link`));
  }

  /** @param {string} testid @returns {HTMLElement} */
  #find(testid) {
    const element = this.root.querySelector(`[data-testid="${testid}"]`);
    if (element === null) throw new Error(`the share dialog lacks ${testid}`);
    return /** @type {HTMLElement} */ (element);
  }
}
