/**
 * The sync indicator: always says where sync stands (synced, uploading N KB, downloading N KB, offline,
 * paused with N changes to upload) and how many received changes wait for review, and opens the details
 * on click. Beside it, the button that pauses and resumes sharing. Tests read `data-state` (and
 * `data-review`, the number held for review, absent for none) on `[data-testid="sync-status"]`.
 *
 * Images travel apart from the changes, so their progress is shown apart too, after the state, in
 * `[data-testid="image-progress"]` ("Images 2 of 5 · 1.2 MB of 3.4 MB"), with `data-images` on the button
 * (`uploading`, `loading`, `failed`; absent when no image is under way). The state never waits for them:
 * a board whose strokes are all here is "Synced" while its images still come.
 */

import { Popover } from './popover.js';
import { imageProgressText } from './image-progress.js';
import { indicatorFor, statusDetails } from './sync-status.js';

/** The sync button in the top bar and its details panel. */
export class SyncIndicator {
  /**
   * @param {{button: HTMLElement, panel: HTMLElement, context: () => {room: string, device?: string,
   *   peers: number, online: boolean}, toggle?: HTMLElement, onToggle?: (pause: boolean) => void}} options
   *   `toggle`: the pause/resume button, whose click calls `onToggle(true)` to pause, `(false)` to resume
   */
  constructor({ button, panel, context, toggle, onToggle }) {
    this.button = button;
    this.panel = panel;
    this.context = context;
    this.toggle = toggle ?? null;
    /** @type {import('./sync-status.js').SessionStatus} */
    this.status = { state: 'connecting', bytesToUpload: 0, bytesToDownload: 0 };
    /** What is said of images, '' for nothing. */
    this.images = '';
    this.popover = new Popover(button, panel, { onOpen: () => this.#fillDetails() });
    if (this.toggle !== null && onToggle !== undefined) {
      // As the other bar buttons: a click does not take the focus from the board (Space keeps panning).
      this.toggle.addEventListener('mousedown', (e) => e.preventDefault());
      this.toggle.addEventListener('click', () => onToggle(this.status.paused !== true));
    }
  }

  /** Shows a session status. @param {import('./sync-status.js').SessionStatus} status */
  show(status) {
    this.status = status;
    const { state, text } = indicatorFor(status);
    this.button.dataset.state = state;
    const label = this.button.querySelector('.sync-text');
    if (label.textContent !== text) label.textContent = text;
    this.button.setAttribute('aria-label', `Sync: ${text}${this.images === '' ? '' : ` · ${this.images}`}. Show details`);
    this.button.title = `${text}: click for details`;
    if (status.held) this.button.dataset.review = String(status.held);
    else delete this.button.dataset.review;
    if (this.toggle !== null) showToggle(this.toggle, status.paused === true);
    if (this.popover.open) this.#fillDetails();
  }

  /** Shows how far images have got. @param {import('./image-progress.js').ImageSummary} summary */
  showImages(summary) {
    const { state, text } = imageProgressText(summary);
    if (state === '') delete this.button.dataset.images;
    else this.button.dataset.images = state;
    const label = this.button.querySelector('.sync-images');
    if (label !== null) {
      if (label.textContent !== text) label.textContent = text;
      label.hidden = text === '';
    }
    if (text === this.images) return;
    this.images = text;
    const status = indicatorFor(this.status).text;
    this.button.setAttribute('aria-label', `Sync: ${status}${text === '' ? '' : ` · ${text}`}. Show details`);
    if (this.popover.open) this.#fillDetails();
  }

  #fillDetails() {
    const list = this.panel.querySelector('dl');
    const doc = this.panel.ownerDocument;
    list.replaceChildren();
    const rows = statusDetails(this.status, this.context());
    if (this.images !== '') rows.splice(1, 0, ['Images', this.images]);
    for (const [label, value] of rows) {
      const term = doc.createElement('dt');
      term.textContent = label;
      const detail = doc.createElement('dd');
      detail.textContent = value;
      list.append(term, detail);
    }
  }
}

/** The pause button says what it does next: pause sharing, or resume it. */
function showToggle(toggle, paused) {
  const label = paused ? 'Resume sharing' : 'Pause sharing';
  if (toggle.getAttribute('aria-label') === label) return;
  toggle.setAttribute('aria-label', label);
  toggle.title = paused ? 'Resume sharing: send your changes and receive the others’' : 'Pause sharing: keep your changes on this device for now';
  toggle.dataset.paused = String(paused);
  const text = toggle.querySelector('.label');
  if (text !== null) text.textContent = paused ? 'Resume' : 'Pause';
  toggle.querySelector('use')?.setAttribute('href', paused ? '#i-play' : '#i-pause');
}
