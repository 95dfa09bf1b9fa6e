/**
 * The others in the room: their cursors with names (DOM, so labels stay crisp), the strokes they are
 * drawing (on the overlay), and the list of who is here. Everything shown of a peer is text they chose,
 * so it goes in through textContent, never as HTML.
 */

import { colourHex } from './colour.js';
import { paintLive } from './tools/pen.js';

/**
 * @typedef {{name?: string, colour?: number, cursor?: [number, number] | null,
 *   ink?: {points: [number, number][], pressures?: number[] | null, colour?: number, width?: number} | null}} Peer
 */

/** The CSS colour of a peer's (or one's own) identity colour, opaque. @param {number | undefined} colour */
export function peerColour(colour) {
  return Number.isInteger(colour) ? colourHex(((colour & 0xffffff00) | 0xff) >>> 0) : '#868e96';
}

/** A peer's name fit to show: what they chose, or a stand-in. @param {Peer} peer */
export function peerName(peer) {
  const name = typeof peer?.name === 'string' ? peer.name.trim() : '';
  return name === '' ? 'Someone' : name.slice(0, 40);
}

/** Others' cursors (DOM) and in-progress ink (overlay), kept in step with presence events. */
export class PresenceView {
  /** @type {Map<string, HTMLElement>} */
  #cursors = new Map();

  /**
   * @param {{layer: HTMLElement, renderer: import('./renderer.js').Renderer, peers: () => Map<string, Peer>,
   *   document?: Document}} options `layer` holds the cursor elements, over the surface
   */
  constructor({ layer, renderer, peers, document = globalThis.document }) {
    this.layer = layer;
    this.renderer = renderer;
    this.peers = peers;
    this.document = document;
    renderer.addLayer((ctx) => this.#paintInk(ctx));
    renderer.onViewChange(() => this.#placeAll());
  }

  /**
   * A peer arrived, moved, drew or left.
   * @param {string} device
   * @param {Peer | null} peer null: they left
   */
  update(device, peer) {
    if (peer === null || peer === undefined) {
      this.#cursors.get(device)?.remove();
      this.#cursors.delete(device);
    } else {
      this.#place(device, peer, true);
    }
    this.renderer.overlayChanged();
  }

  /** Re-reads every peer (after a reconnect, say). */
  refresh() {
    const peers = this.peers();
    for (const device of [...this.#cursors.keys()]) if (!peers.has(device)) this.update(device, null);
    for (const [device, peer] of peers) this.#place(device, peer, false);
    this.renderer.overlayChanged();
  }

  #placeAll() {
    for (const [device, peer] of this.peers()) this.#place(device, peer, false);
  }

  /** Puts a peer's cursor where it is on screen: gliding when they moved (updates come ~15 times a
   * second), at once when the view moved (or cursors would swim behind the board). */
  #place(device, peer, glide) {
    let element = this.#cursors.get(device);
    if (element === undefined) {
      element = this.#cursorElement();
      this.layer.append(element);
      this.#cursors.set(device, element);
    }
    element.style.setProperty('--peer', peerColour(peer.colour));
    const label = element.querySelector('.peer-cursor-name');
    const name = peerName(peer);
    if (label.textContent !== name) label.textContent = name;
    const cursor = peer.cursor;
    if (!Array.isArray(cursor) || !Number.isFinite(cursor[0]) || !Number.isFinite(cursor[1])) {
      element.hidden = true;
      return;
    }
    const [sx, sy] = this.renderer.viewport.toScreen(cursor[0], cursor[1]);
    const { width, height } = this.renderer.viewport;
    element.hidden = sx < -20 || sy < -20 || sx > width + 20 || sy > height + 20;
    element.classList.toggle('glide', glide);
    element.style.transform = `translate(${sx}px, ${sy}px)`;
  }

  #cursorElement() {
    const element = this.document.createElement('div');
    element.className = 'peer-cursor';
    element.setAttribute('aria-hidden', 'true');
    element.innerHTML =
      '<svg width="16" height="20" viewBox="0 0 16 20"><path d="M1 1 L1 16 L5 12 L8 19 L11 17.6 L8 11 L14 11 Z"/></svg>' +
      '<span class="peer-cursor-name"></span>';
    return element;
  }

  /** Others' strokes in progress, under their own colours. @param {CanvasRenderingContext2D} ctx */
  #paintInk(ctx) {
    for (const peer of this.peers().values()) {
      const ink = peer.ink;
      if (!ink || !Array.isArray(ink.points) || ink.points.length === 0) continue;
      const colour = Number.isInteger(ink.colour) ? ink.colour : (peer.colour ?? 0x000000ff);
      const width = ink.width > 0 ? ink.width : 3;
      paintLive(ctx, ink.points, ink.pressures ?? null, colour, width, this.renderer.style);
    }
  }
}
