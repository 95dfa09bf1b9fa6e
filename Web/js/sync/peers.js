// The other people in the room, from their presence frames: ephemeral, never stored.
//
// A peer is removed when the server announces that it left (a presence with an empty name, no cursor and
// no ink: the server's `announceLeaving`) or when it has been silent for `expiry`, so a peer whose
// connection died without a word does not haunt the board.

import { decodePoints } from '../wire/points.js';
import { toHex } from '../wire/bytes.js';

/**
 * @typedef {{points: [number, number][], pressures: number[] | null, colour: number, width: number}} Ink
 * @typedef {{name: string, colour: number, cursor: [number, number] | null, ink: Ink | null, lastSeen: number}} Peer
 * @typedef {import('../wire/sync.js').PresenceFrame} PresenceFrame
 */

/** How long a silent peer stays, in milliseconds. */
export const PEER_EXPIRY = 30_000;

export class Peers {
  /** device (hex) → peer. @type {Map<string, Peer>} */
  map = new Map();

  /** @param {{expiry?: number}} [options] */
  constructor({ expiry = PEER_EXPIRY } = {}) {
    this.expiry = expiry;
  }

  /**
   * Takes in a presence frame from another device.
   * @param {PresenceFrame} frame
   * @param {number} now milliseconds
   * @returns {{device: string, peer: Peer | null, arrived: boolean} | null} what changed (peer null: it
   *   left), or null when nothing did (a leave of a peer not known)
   */
  receive(frame, now) {
    const device = toHex(frame.device);
    if (frame.name === '' && !frame.hasCursor && frame.ink === null) {
      return this.map.delete(device) ? { device, peer: null, arrived: false } : null;
    }
    const arrived = !this.map.has(device);
    const peer = {
      name: frame.name,
      colour: frame.colour,
      cursor: frame.hasCursor ? /** @type {[number, number]} */ ([frame.cursorX, frame.cursorY]) : null,
      ink: inkOf(frame),
      lastSeen: now,
    };
    this.map.set(device, peer);
    return { device, peer, arrived };
  }

  /**
   * Removes the peers silent since before `now - expiry`.
   * @param {number} now
   * @returns {string[]} the devices removed
   */
  expire(now) {
    const gone = [];
    for (const [device, peer] of this.map) {
      if (now - peer.lastSeen >= this.expiry) {
        this.map.delete(device);
        gone.push(device);
      }
    }
    return gone;
  }

  /** Forgets everyone (this page went offline: it can no longer see them). @returns {string[]} */
  clear() {
    const gone = [...this.map.keys()];
    this.map.clear();
    return gone;
  }
}

/** The in-progress ink of a frame; null when absent or unreadable (presence is best effort). */
function inkOf(frame) {
  if (frame.ink === null || frame.ink.points.length === 0) return null;
  try {
    const { points, pressures } = decodePoints(frame.ink.points);
    return { points, pressures, colour: frame.ink.colour, width: frame.ink.width };
  } catch {
    return null;
  }
}
