/**
 * The review banner: when changes from others were held after time away (js/sync/catch-up-review.js), it
 * says how many and from whom ("3 changes from Amber Otter and Calm Wren arrived"), with Show (a preview
 * of the board with them merged, and back) and Merge (into the live board; the banner goes).
 *
 * People are named as the page knows them: by the name they are showing in the room now, else the last
 * name this browser saw them use (kept in localStorage), else a short form of their replica id.
 */

import { peerName } from './presence.js';

/** Authors named before "and N others". */
export const NAMED_AUTHORS = 3;

const KNOWN = 'inkwell.people';
/** Names kept, most recently seen last. */
const KNOWN_LIMIT = 200;

/** A short form of a replica id, for someone the page has no name for. @param {string} replica */
export function shortId(replica) {
  return String(replica).slice(0, 6);
}

/**
 * "A", "A and B", "A, B and C", "A, B, C and 2 others" (at most `named` names; repeated names once).
 * @param {string[]} labels most important first
 * @param {number} [named]
 */
export function listNames(labels, named = NAMED_AUTHORS) {
  const unique = [...new Set(labels)];
  if (unique.length === 0) return 'someone';
  // "and 1 other" names the one instead: it is no longer than the count.
  const shown = unique.length <= named + 1 ? unique : unique.slice(0, named);
  const others = unique.length - shown.length;
  if (others > 0) return `${shown.join(', ')} and ${others} others`;
  if (shown.length === 1) return shown[0];
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/**
 * The banner's sentence: "2 changes from A and B arrived".
 * @param {number} count
 * @param {string[]} labels the authors, most changes first
 */
export function reviewSummary(count, labels) {
  return `${count} ${count === 1 ? 'change' : 'changes'} from ${listNames(labels)} arrived`;
}

/** The names this browser has seen people use, by replica (device) id. */
export class KnownPeople {
  /** @type {Map<string, string>} */
  #names = new Map();
  #storage;

  /** @param {Storage | null} storage `localStorage`; null or one that throws keeps names for this visit */
  constructor(storage) {
    this.#storage = storage;
    try {
      const stored = JSON.parse(storage?.getItem(KNOWN) ?? '[]');
      if (Array.isArray(stored)) {
        for (const entry of stored) {
          if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string') this.#names.set(entry[0], entry[1]);
        }
      }
    } catch {
      // A damaged entry: start afresh.
    }
  }

  /**
   * Notes the name a peer shows (stored only when it is new, not on every cursor move).
   * @param {string} device
   * @param {import('./presence.js').Peer} peer
   * @returns {boolean} whether the name is new for that device
   */
  remember(device, peer) {
    if (typeof peer?.name !== 'string' || peer.name.trim() === '') return false;
    const name = peerName(peer);
    if (this.#names.get(device) === name) return false;
    this.#names.delete(device);
    this.#names.set(device, name);
    while (this.#names.size > KNOWN_LIMIT) this.#names.delete(this.#names.keys().next().value);
    try {
      this.#storage?.setItem(KNOWN, JSON.stringify([...this.#names]));
    } catch {
      // Kept for this visit only.
    }
    return true;
  }

  /**
   * How to call the author of a timeline.
   * @param {string} replica
   * @param {Map<string, import('./presence.js').Peer>} [here] the peers in the room now
   */
  label(replica, here) {
    const peer = here?.get(replica);
    if (peer !== undefined && typeof peer.name === 'string' && peer.name.trim() !== '') return peerName(peer);
    return this.#names.get(replica) ?? shortId(replica);
  }
}

/** The banner over the board, with its Show and Merge buttons. */
export class ReviewBanner {
  /**
   * @param {{element: HTMLElement, onShow: () => void, onMerge: () => void}} options `onShow` toggles the
   *   preview
   */
  constructor({ element, onShow, onMerge }) {
    this.element = element;
    this.text = /** @type {HTMLElement} */ (element.querySelector('.review-text'));
    this.mode = /** @type {HTMLElement} */ (element.querySelector('.review-mode'));
    this.showButton = /** @type {HTMLButtonElement} */ (element.querySelector('[data-testid="review-show"]'));
    this.mergeButton = /** @type {HTMLButtonElement} */ (element.querySelector('[data-testid="review-merge"]'));
    this.showButton.addEventListener('click', () => onShow());
    this.mergeButton.addEventListener('click', () => onMerge());
  }

  /**
   * @param {{count: number, labels: string[], previewing: boolean}} review
   */
  render({ count, labels, previewing }) {
    const hidden = count === 0;
    if (hidden && this.element.contains(this.element.ownerDocument.activeElement)) {
      // The focused button goes with the banner: the board takes the focus, not the page's body.
      this.element.ownerDocument.getElementById('surface')?.focus();
    }
    this.element.hidden = hidden;
    if (hidden) return;
    const sentence = reviewSummary(count, labels);
    if (this.text.textContent !== sentence) this.text.textContent = sentence;
    this.mode.textContent = previewing ? 'Preview: the board shows them, not merged yet.' : 'Not on your board yet.';
    this.element.dataset.previewing = String(previewing);
    this.showButton.textContent = previewing ? 'Hide' : 'Show';
    this.showButton.title = previewing ? 'Back to the live board, without them' : 'Preview the board with them merged';
    this.mergeButton.title = `Merge ${count === 1 ? 'it' : 'them'} into the live board`;
  }
}
