// Presence for one session: this page's, sent at most ≈ 15 times a second (once per animation frame while
// it carries ink being drawn, so the others see the stroke grow smoothly) and only while someone else is
// in the room (plus once on joining, so the others learn it is here, and again to each newcomer), and the
// others', kept as peers until they leave or fall silent. Ephemeral: nothing here is stored.

import { Peers } from './peers.js';
import { presenceFrame } from './presence-frame.js';
import { Throttle } from './throttle.js';

/**
 * @typedef {import('./presence-frame.js').PresenceInput} PresenceInput
 * @typedef {import('./peers.js').Peer} Peer
 * @typedef {import('../wire/sync.js').PresenceFrame} PresenceFrame
 */

/** Presence frames per second, at most. */
const PER_SECOND = 15;
/** Presence frames per second, at most, while a stroke is being drawn: one per animation frame. */
const INK_PER_SECOND = 60;
/** This page's presence is repeated this often while others are here, so they do not expire it. */
const HEARTBEAT = 10_000;
/** How often silent peers are looked for. */
const SWEEP = 5_000;

export class PresenceChannel {
  #room;
  #device;
  #board;
  #send;
  #emit;
  #now;
  #peers;
  /** @type {Throttle<PresenceInput>} */
  #throttle;
  /** @type {PresenceInput} */
  #mine;
  #sentAt = -Infinity;
  #sweep;

  /**
   * @param {{
   *   room: string, device: Uint8Array, board: string, initial: PresenceInput, expiry?: number,
   *   now: () => number, send: (frame: PresenceFrame) => boolean,
   *   emit: (device: string, peer: Peer | null) => void
   * }} options `send` says whether the frame went (it does not while offline)
   */
  constructor({ room, device, board, initial, expiry, now, send, emit }) {
    this.#room = room;
    this.#device = device;
    this.#board = board;
    this.#mine = initial;
    this.#now = now;
    this.#send = send;
    this.#emit = emit;
    this.#peers = new Peers({ expiry });
    // Wrapped: a browser's timer functions refuse to be called as methods of another object.
    const timers = { now: () => performance.now(), setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) };
    const interval = (presence) => 1000 / (presence.ink ? INK_PER_SECOND : PER_SECOND);
    this.#throttle = new Throttle(interval, (presence) => this.#sendNow(presence), timers);
    this.#sweep = setInterval(() => this.#sweepPeers(), Math.min(SWEEP, this.#peers.expiry / 3));
    // Must not keep node's test runner alive; browsers have no `unref`.
    this.#sweep.unref?.();
  }

  /** Device (hex) → peer: the others here now. */
  get peers() {
    return this.#peers.map;
  }

  /**
   * This page's presence changed.
   * @param {PresenceInput} presence merged over the last one
   * @throws {TypeError} for a malformed colour, cursor or ink
   */
  set(presence) {
    const next = { ...this.#mine, ...presence };
    presenceFrame(this.#room, this.#device, this.#board, next);
    this.#mine = next;
    if (this.#peers.map.size > 0) this.#throttle.submit(next);
  }

  /** Subscribed to the room: say once that this page is here. */
  joined() {
    this.#sendNow(this.#mine);
  }

  /** Presence from another device. @param {PresenceFrame} frame */
  receive(frame) {
    const update = this.#peers.receive(frame, this.#now());
    if (update === null) return;
    this.#emit(update.device, update.peer);
    // Someone new: tell them who is here.
    if (update.arrived) this.#throttle.submit(this.#mine);
  }

  /** The connection is gone: the others can no longer be seen, nor see this page. */
  disconnected() {
    this.#throttle.cancel();
    for (const device of this.#peers.clear()) this.#emit(device, null);
  }

  close() {
    clearInterval(this.#sweep);
    this.disconnected();
  }

  #sendNow(presence) {
    let frame;
    try {
      frame = presenceFrame(this.#room, this.#device, this.#board, presence);
    } catch {
      return;
    }
    if (this.#send(frame)) this.#sentAt = this.#now();
  }

  #sweepPeers() {
    const now = this.#now();
    for (const device of this.#peers.expire(now)) this.#emit(device, null);
    const heartbeat = Math.min(HEARTBEAT, this.#peers.expiry / 3);
    if (this.#peers.map.size > 0 && now - this.#sentAt >= heartbeat) this.#throttle.submit(this.#mine);
  }
}
