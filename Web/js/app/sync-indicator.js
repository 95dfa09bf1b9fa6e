/**
 * The sync indicator: always says where sync stands (synced, uploading N KB, downloading N KB, offline)
 * and opens the details on click. Tests read `data-state` on `[data-testid="sync-status"]`.
 */

import { Popover } from './popover.js';
import { indicatorFor, statusDetails } from './sync-status.js';

/** The sync button in the top bar and its details panel. */
export class SyncIndicator {
  /**
   * @param {{button: HTMLElement, panel: HTMLElement, context: () => {room: string, device?: string,
   *   peers: number, online: boolean}}} options
   */
  constructor({ button, panel, context }) {
    this.button = button;
    this.panel = panel;
    this.context = context;
    this.status = { state: 'connecting', bytesToUpload: 0, bytesToDownload: 0 };
    this.popover = new Popover(button, panel, { onOpen: () => this.#fillDetails() });
  }

  /** Shows a session status. @param {import('./sync-status.js').SessionStatus} status */
  show(status) {
    this.status = status;
    const { state, text } = indicatorFor(status);
    this.button.dataset.state = state;
    const label = this.button.querySelector('.sync-text');
    if (label.textContent !== text) label.textContent = text;
    this.button.setAttribute('aria-label', `Sync: ${text}. Show details`);
    this.button.title = `${text}: click for details`;
    if (this.popover.open) this.#fillDetails();
  }

  #fillDetails() {
    const list = this.panel.querySelector('dl');
    const doc = this.panel.ownerDocument;
    list.replaceChildren();
    for (const [label, value] of statusDetails(this.status, this.context())) {
      const term = doc.createElement('dt');
      term.textContent = label;
      const detail = doc.createElement('dd');
      detail.textContent = value;
      list.append(term, detail);
    }
  }
}
